package corpus.nio;

import java.io.FileInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Reads and writes through {@code FileChannel}: heap and direct buffers, positions, transfers. */
public final class FileChannels {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path in = dir.resolve("data.bin");
        Path out = dir.resolve("out.bin");
        try (FileChannel ch = FileChannel.open(in, StandardOpenOption.READ)) {
            ByteBuffer heap = ByteBuffer.allocate(100);
            ByteBuffer direct = ByteBuffer.allocateDirect(100);
            System.out.println("size " + ch.size() + " read " + ch.read(heap) + " at " + ch.position());
            System.out.println("direct " + ch.read(direct) + " at " + ch.position() + " first " + direct.get(0));
            ByteBuffer at = ByteBuffer.allocate(8);
            System.out.println("pread " + ch.read(at, 1000) + " " + at.getLong(0) + " still at " + ch.position());
            ch.position(ch.size() - 5);
            ByteBuffer[] parts = {ByteBuffer.allocate(2), ByteBuffer.allocateDirect(10)};
            System.out.println("readv " + ch.read(parts) + " " + parts[0].position() + "+" + parts[1].position()
                    + " then " + ch.read(ByteBuffer.allocate(4)));
        }
        try (FileChannel w = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer src = ByteBuffer.wrap(("written at " + System.nanoTime()).getBytes(StandardCharsets.UTF_8));
            System.out.println("write " + w.write(src) + " remaining " + src.remaining() + " at " + w.position());
            ByteBuffer d = ByteBuffer.allocateDirect(4).putInt(42).flip();
            System.out.println("pwrite " + w.write(d, 100) + " size " + w.size());
            w.write(new ByteBuffer[] {ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.wrap(new byte[] {3})});
            try (FileChannel r = FileChannel.open(in, StandardOpenOption.READ)) {
                System.out.println("transferFrom " + w.transferFrom(r, w.size(), 5000) + " size " + w.size());
                System.out.println("transferTo " + r.transferTo(0, 300, w) + " at " + w.position());
            }
            System.out.println("toStream " + w.transferTo(0, 20, Channels.newChannel(new java.io.ByteArrayOutputStream())));
            try (FileLock lock = w.lock()) {
                System.out.println("lock " + lock.isShared() + " " + lock.isValid());
            }
            w.truncate(50);
            w.force(true);
            System.out.println("truncated " + w.size() + " at " + w.position());
        }
        try (FileInputStream fis = new FileInputStream(in.toFile()); FileChannel ch = fis.getChannel()) {
            ByteBuffer b = ByteBuffer.allocate(16);
            System.out.println("stream channel " + ch.read(b) + " size " + ch.size() + " stream read " + fis.read());
        }
    }
}
