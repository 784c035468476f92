package corpus.nio;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Maps file regions as {@code MemorySegment}s an {@code Arena} owns (JDK 22 and later; Lucene
 * reads its indexes so), reads them and writes through them. The corpus is compiled for JDK 17,
 * so the foreign API is called through method handles. Expected: the replay prints the same lines
 * with the files gone.
 */
public final class MappedSegments {
    private static final MethodHandles.Lookup L = MethodHandles.publicLookup();

    public static void main(String[] args) throws Throwable {
        Class<?> arenaType = Class.forName("java.lang.foreign.Arena");
        Class<?> segmentType = Class.forName("java.lang.foreign.MemorySegment");
        MethodHandle ofConfined = L.findStatic(arenaType, "ofConfined", MethodType.methodType(arenaType));
        MethodHandle map = L.findVirtual(FileChannel.class, "map",
                MethodType.methodType(segmentType, FileChannel.MapMode.class, long.class, long.class, arenaType));
        MethodHandle asBuffer = L.findVirtual(segmentType, "asByteBuffer", MethodType.methodType(ByteBuffer.class));
        MethodHandle readOnly = L.findVirtual(segmentType, "isReadOnly", MethodType.methodType(boolean.class));
        MethodHandle force = L.findVirtual(segmentType, "force", MethodType.methodType(void.class));
        Path dir = Path.of(args[0]);
        try (AutoCloseable arena = (AutoCloseable) ofConfined.invoke();
             FileChannel ch = FileChannel.open(dir.resolve("data.bin"), StandardOpenOption.READ)) {
            Object whole = map.invoke(ch, FileChannel.MapMode.READ_ONLY, 0L, ch.size(), arena);
            ByteBuffer b = (ByteBuffer) asBuffer.invoke(whole);
            System.out.println("read-only " + b.capacity() + " bytes, read-only " + readOnly.invoke(whole) + ", sum " + sum(b));
            ByteBuffer tail = (ByteBuffer) asBuffer.invoke(map.invoke(ch, FileChannel.MapMode.READ_ONLY, 4000L, 1000L, arena));
            System.out.println("tail " + sum(tail) + " first " + tail.get(0));
        }
        Path rw = dir.resolve("segment.bin");
        try (AutoCloseable arena = (AutoCloseable) ofConfined.invoke();
             FileChannel ch = FileChannel.open(rw, StandardOpenOption.CREATE, StandardOpenOption.READ,
                     StandardOpenOption.WRITE)) {
            Object s = map.invoke(ch, FileChannel.MapMode.READ_WRITE, 0L, 4096L, arena);
            ByteBuffer b = (ByteBuffer) asBuffer.invoke(s);
            b.putInt(0, 7).putInt(100, 42);
            force.invoke(s);
            System.out.println("read-write " + b.capacity() + " bytes, after writes " + b.getInt(0) + " " + b.getInt(100));
        }
        ByteBuffer back = ByteBuffer.wrap(Files.readAllBytes(rw));
        System.out.println("file after force " + back.getInt(0) + " " + back.getInt(100));
        try (AutoCloseable arena = (AutoCloseable) ofConfined.invoke();
             FileChannel ch = FileChannel.open(rw, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer p = (ByteBuffer) asBuffer.invoke(map.invoke(ch, FileChannel.MapMode.PRIVATE, 0L, 4096L, arena));
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
