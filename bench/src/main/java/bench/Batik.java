package bench;

import java.io.ByteArrayOutputStream;
import java.io.StringReader;

import org.apache.batik.transcoder.TranscoderInput;
import org.apache.batik.transcoder.TranscoderOutput;
import org.apache.batik.transcoder.image.PNGTranscoder;

/** batik: rasterizes generated SVG drawings (shapes, gradients, paths, transforms) to PNG in memory. */
public final class Batik {
    private Batik() {
    }

    public static void main(String[] args) throws Exception {
        Timed.begin();
        int shapes = Integer.parseInt(args[0]);
        int images = Integer.parseInt(args[1]);
        ResultDigest digest = new ResultDigest();
        for (int i = 0; i < images; i++) {
            PNGTranscoder t = new PNGTranscoder();
            t.addTranscodingHint(PNGTranscoder.KEY_WIDTH, 800f);
            t.addTranscodingHint(PNGTranscoder.KEY_HEIGHT, 600f);
            ByteArrayOutputStream png = new ByteArrayOutputStream();
            t.transcode(new TranscoderInput(new StringReader(svg(shapes, i))), new TranscoderOutput(png));
            digest.add(png.toByteArray());
        }
        digest.print("batik");
        Timed.end();
    }

    private static String svg(int shapes, int seed) {
        StringBuilder b = new StringBuilder("""
            <svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">
              <defs>
                <linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#36c"/><stop offset="1" stop-color="#fc3"/></linearGradient>
                <radialGradient id="r"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#c33" stop-opacity="0.6"/></radialGradient>
              </defs>
              <rect width="800" height="600" fill="url(#g)"/>
            """);
        for (int k = 0; k < shapes; k++) {
            int n = k * 7919 + seed * 104729;
            int x = n % 800;
            int y = (n / 800) % 600;
            int size = 10 + n % 60;
            String transform = " transform=\"rotate(" + (n % 360) + " " + x + " " + y + ")\"";
            switch (k % 3) {
                case 0 -> b.append("<circle cx=\"").append(x).append("\" cy=\"").append(y).append("\" r=\"").append(size)
                        .append("\" fill=\"url(#r)\" stroke=\"#222\" stroke-width=\"1.5\"/>\n");
                case 1 -> b.append("<rect x=\"").append(x).append("\" y=\"").append(y).append("\" width=\"").append(size * 2)
                        .append("\" height=\"").append(size).append("\" rx=\"4\" fill=\"#").append(String.format("%06x", n & 0xffffff))
                        .append("\" fill-opacity=\"0.7\"").append(transform).append("/>\n");
                default -> b.append("<path d=\"M").append(x).append(' ').append(y).append(" q").append(size).append(' ')
                        .append(-size).append(' ').append(size * 2).append(" 0 t").append(size * 2).append(" 0 l-")
                        .append(size).append(' ').append(size).append(" z\" fill=\"none\" stroke=\"#063\" stroke-width=\"2\"/>\n");
            }
        }
        return b.append("</svg>\n").toString();
    }
}
