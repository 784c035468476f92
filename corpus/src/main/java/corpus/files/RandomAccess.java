package corpus.files;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;

/**
 * Reads a file through RandomAccessFile in every way it offers, then appends to it, patches it
 * in place and truncates it: the output depends on the file's contents.
 */
public final class RandomAccess {
    public static void main(String[] args) throws Exception {
        try (RandomAccessFile raf = new RandomAccessFile(args[0], "rw")) {
            long length = raf.length();
            System.out.println("length " + length);
            System.out.println("first line: " + raf.readLine());
            System.out.println("pointer " + raf.getFilePointer());
            int b = raf.read();
            System.out.println("next byte " + b);
            byte[] buf = new byte[8];
            int n = raf.read(buf);
            System.out.println("read " + n + ": " + new String(buf, 0, Math.max(n, 0), StandardCharsets.ISO_8859_1));
            System.out.println("skipped " + raf.skipBytes(3) + " to " + raf.getFilePointer());
            raf.seek(0);
            System.out.println("int at 0: " + Integer.toHexString(raf.readInt()));
            raf.seek(length / 2);
            byte[] half = new byte[(int) (length - length / 2)];
            raf.readFully(half, 0, half.length);
            System.out.println("second half sum " + sum(half));
            System.out.println("at end read " + raf.read() + ", " + raf.read(buf, 0, 4));

            raf.seek(length);
            raf.write('#');
            raf.write(" appended at ".getBytes(StandardCharsets.US_ASCII));
            raf.write(Long.toString(length).getBytes(StandardCharsets.US_ASCII), 0, Long.toString(length).length());
            raf.writeBytes("\n");
            System.out.println("length after append " + raf.length());
            raf.seek(0);
            raf.write('X');
            raf.setLength(raf.length() - 1);
            System.out.println("length after truncate " + raf.length() + " pointer " + raf.getFilePointer());
        }
        try (RandomAccessFile ro = new RandomAccessFile(args[0], "r")) {
            byte[] all = new byte[(int) ro.length()];
            ro.readFully(all);
            System.out.print("now: " + new String(all, StandardCharsets.ISO_8859_1));
        }
        try {
            new RandomAccessFile(args[0] + ".missing", "r").close();
        } catch (java.io.FileNotFoundException e) {
            System.out.println("missing: " + e.getMessage().replace(args[0], "<file>"));
        }
    }

    private static long sum(byte[] b) {
        long s = 0;
        for (byte x : b) {
            s = s * 31 + x;
        }
        return s;
    }
}
