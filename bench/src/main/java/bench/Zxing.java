package bench;

import java.awt.image.BufferedImage;
import java.util.Map;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.BinaryBitmap;
import com.google.zxing.DecodeHintType;
import com.google.zxing.EncodeHintType;
import com.google.zxing.MultiFormatReader;
import com.google.zxing.MultiFormatWriter;
import com.google.zxing.Result;
import com.google.zxing.client.j2se.BufferedImageLuminanceSource;
import com.google.zxing.client.j2se.MatrixToImageWriter;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.common.HybridBinarizer;

/** zxing: encodes generated texts as QR, Data Matrix, Code 128 and PDF417 images in memory, then decodes them back. */
public final class Zxing {
    private static final BarcodeFormat[] FORMATS = {BarcodeFormat.QR_CODE, BarcodeFormat.DATA_MATRIX,
        BarcodeFormat.CODE_128, BarcodeFormat.PDF_417};

    private Zxing() {
    }

    public static void main(String[] args) throws Exception {
        Timed.begin();
        int count = Integer.parseInt(args[0]);
        MultiFormatWriter writer = new MultiFormatWriter();
        MultiFormatReader reader = new MultiFormatReader();
        ResultDigest digest = new ResultDigest();
        for (int i = 0; i < count; i++) {
            BarcodeFormat format = FORMATS[i % FORMATS.length];
            String text = format == BarcodeFormat.CODE_128 ? "RPR-" + (i * 7919 % 1000003)
                    : "reprise bench " + i + " " + "x".repeat(i % 40) + " " + Long.toHexString(i * 0x9E3779B97F4A7C15L);
            int width = format == BarcodeFormat.CODE_128 ? 400 : 300;
            BitMatrix m = writer.encode(text, format, width, format == BarcodeFormat.CODE_128 ? 80 : 300,
                    Map.of(EncodeHintType.MARGIN, 4));
            BufferedImage img = MatrixToImageWriter.toBufferedImage(m);
            Result r = reader.decode(new BinaryBitmap(new HybridBinarizer(new BufferedImageLuminanceSource(img))),
                    Map.of(DecodeHintType.TRY_HARDER, Boolean.TRUE, DecodeHintType.POSSIBLE_FORMATS, java.util.List.of(format)));
            if (!r.getText().equals(text)) {
                throw new IllegalStateException("decoded " + r.getText() + " for " + text);
            }
            digest.add(format + " " + r.getText() + " " + m.getWidth() + "x" + m.getHeight());
        }
        digest.print("zxing");
        Timed.end();
    }
}
