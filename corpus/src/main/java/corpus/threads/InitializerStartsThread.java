package corpus.threads;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;

/**
 * A JDK class initializer that starts a thread: drawing into an image initializes Java2D's
 * {@code sun.java2d.Disposer}, whose initializer constructs and starts its daemon thread. Prints
 * a pixel and the time it took.
 */
public final class InitializerStartsThread {
    private InitializerStartsThread() {
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        long start = System.nanoTime();
        BufferedImage image = new BufferedImage(8, 8, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = image.createGraphics();
        g.setColor(Color.ORANGE);
        g.fillRect(0, 0, 8, 8);
        g.dispose();
        System.out.println("pixel " + Integer.toHexString(image.getRGB(3, 3)) + " after " + (System.nanoTime() - start) + " ns");
    }
}
