package corpus.files;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;

import javax.imageio.ImageIO;
import javax.imageio.stream.FileImageInputStream;
import javax.imageio.stream.FileImageOutputStream;

/**
 * The JDK's image streams, which work on a file through a RandomAccessFile from outside
 * java.base: a stream that seeks back to patch what it wrote, one that asks a file's length,
 * an image written to a PNG file and read back, and one written to memory through ImageIO's disk
 * cache (a temp file). ImageIO's registry, built in its class initializer, iterates its
 * providers in the order of their identity hashes. Headless; the output depends on the files'
 * contents.
 */
public final class ImageStreams {
    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        File dir = new File(args[0]);
        File data = new File(dir, "patched.bin");
        try (FileImageOutputStream out = new FileImageOutputStream(data)) {
            out.writeInt(0);
            out.writeInt(42);
            out.seek(0);
            out.writeInt(7);
            System.out.println("output stream at " + out.getStreamPosition() + " of " + out.length());
        }
        try (FileImageInputStream in = new FileImageInputStream(data)) {
            System.out.println("input length " + in.length());
            in.seek(4);
            System.out.println("int at 4: " + in.readInt() + ", then at 0: " + readAt(in, 0));
        }

        BufferedImage img = new BufferedImage(40, 30, BufferedImage.TYPE_INT_RGB);
        for (int i = 0; i < 30; i++) {
            img.setRGB(i, i, 0xFFFFFF);
            img.setRGB(39 - i, i, 0x00FF00);
        }
        File png = new File(dir, "image.png");
        System.out.println("png written " + ImageIO.write(img, "png", png));
        BufferedImage back = ImageIO.read(png);
        System.out.println("png read " + back.getWidth() + "x" + back.getHeight() + " lit " + lit(back));

        ImageIO.setCacheDirectory(dir);
        ImageIO.setUseCache(true);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ImageIO.write(img, "png", bytes);
        BufferedImage cached = ImageIO.read(new ByteArrayInputStream(bytes.toByteArray()));
        System.out.println("through the cache " + bytes.size() + " bytes, lit " + lit(cached));
    }

    private static int readAt(FileImageInputStream in, long pos) throws Exception {
        in.seek(pos);
        return in.readInt();
    }

    private static int lit(BufferedImage img) {
        int n = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                if ((img.getRGB(x, y) & 0xFFFFFF) != 0) {
                    n++;
                }
            }
        }
        return n;
    }
}
