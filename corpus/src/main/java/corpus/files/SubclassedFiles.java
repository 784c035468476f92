package corpus.files;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;

/**
 * Writes a file, then reads, seeks, measures and truncates it through its own subclasses of
 * RandomAccessFile and FileInputStream, used only through interfaces of its own (as a database's
 * storage layer does): no call names a JDK class. One subclass overrides {@code length} and
 * {@code getFilePointer} and calls the JDK's, counting its calls.
 */
public final class SubclassedFiles {
    /** The program's view of a file it reads and writes at positions. */
    interface Storage extends AutoCloseable {
        long length() throws IOException;

        void setLength(long n) throws IOException;

        long getFilePointer() throws IOException;

        void seek(long pos) throws IOException;

        int read(byte[] b, int off, int len) throws IOException;

        void write(byte[] b) throws IOException;

        @Override
        void close() throws IOException;
    }

    /** The program's view of a stream it reads. */
    interface Source extends AutoCloseable {
        int read(byte[] b) throws IOException;

        int available() throws IOException;

        long skip(long n) throws IOException;

        @Override
        void close() throws IOException;
    }

    static class DirFile extends RandomAccessFile implements Storage {
        DirFile(File file, String mode) throws IOException {
            super(file, mode);
        }
    }

    static final class CountingFile extends DirFile {
        int calls;

        CountingFile(File file, String mode) throws IOException {
            super(file, mode);
        }

        @Override
        public long length() throws IOException {
            calls++;
            return super.length();
        }

        @Override
        public long getFilePointer() throws IOException {
            calls++;
            return super.getFilePointer();
        }
    }

    static final class DirInput extends FileInputStream implements Source {
        DirInput(File file) throws IOException {
            super(file);
        }
    }

    public static void main(String[] args) throws Exception {
        File file = new File(args[0]);
        try (FileOutputStream out = new FileOutputStream(file)) {
            out.write("0123456789abcdefghijklmnopqrstuvwxyz\n".getBytes(StandardCharsets.US_ASCII));
        }
        try (Storage s = new DirFile(file, "rw")) {
            System.out.println("length " + s.length());
            s.seek(10);
            byte[] b = new byte[6];
            int n = s.read(b, 0, b.length);
            System.out.println("read " + n + " at 10: " + new String(b, 0, n, StandardCharsets.US_ASCII)
                    + ", pointer " + s.getFilePointer());
            s.seek(s.length());
            s.write("tail\n".getBytes(StandardCharsets.US_ASCII));
            System.out.println("length after append " + s.length() + ", pointer " + s.getFilePointer());
            s.setLength(20);
            System.out.println("length after truncate " + s.length());
        }
        try (CountingFile c = new CountingFile(file, "r")) {
            Storage s = c;
            s.seek(s.length() - 4);
            System.out.println("pointer " + s.getFilePointer() + " of " + s.length() + ", " + c.calls + " calls");
        }
        try (Source in = new DirInput(file)) {
            System.out.println("available " + in.available() + ", skipped " + in.skip(5));
            byte[] b = new byte[32];
            int n = in.read(b);
            System.out.println("read " + n + ": " + new String(b, 0, n, StandardCharsets.US_ASCII));
        }
    }
}
