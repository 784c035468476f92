package corpus.nio;

import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Maps file regions in each mode, reads them and writes through them; every line depends on
 * bytes read from mapped memory. Expected: the replay prints the same lines with the files gone.
 */
public final class MappedFiles {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        try (FileChannel ch = FileChannel.open(dir.resolve("data.bin"), StandardOpenOption.READ)) {
            MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
            System.out.println("read-only " + m.capacity() + " bytes, read-only " + m.isReadOnly() + ", sum " + sum(m));
            MappedByteBuffer tail = ch.map(FileChannel.MapMode.READ_ONLY, 4000, 1000);
            System.out.println("tail " + sum(tail) + " first " + tail.get(0));
            System.out.println("empty " + ch.map(FileChannel.MapMode.READ_ONLY, 0, 0).capacity());
        }
        Path rw = dir.resolve("mapped.bin");
        try (FileChannel ch = FileChannel.open(rw, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, 0, 4096);
            m.putInt(0, 7).putInt(100, 42);
            System.out.println("read-write " + m.capacity() + " bytes, read-only " + m.isReadOnly() + ", after writes "
                    + m.getInt(0) + " " + m.getInt(100));
            m.force();
        }
        ByteBuffer back = ByteBuffer.wrap(Files.readAllBytes(rw));
        System.out.println("file after force " + back.getInt(0) + " " + back.getInt(100));
        try (FileChannel ch = FileChannel.open(rw, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer p = ch.map(FileChannel.MapMode.PRIVATE, 0, 4096);
            int seen = p.getInt(0);
            p.putInt(0, 99);
            System.out.println("private sees " + seen + ", file keeps " + ByteBuffer.wrap(Files.readAllBytes(rw)).getInt(0)
                    + ", private after write " + p.getInt(0));
        }
    }

    private static long sum(ByteBuffer b) {
        long s = 0;
        for (int i = 0; i < b.capacity(); i++) {
            s = 31 * s + b.get(i);
        }
        return s;
    }
}
