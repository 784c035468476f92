package corpus.single;

import corpus.Expect;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import org.mockito.Mockito;

/**
 * Objects that code woven into a JDK method hashes first, inside a call Reprise makes an event of.
 * Mocking {@code FileChannel} makes Mockito's inline mock maker weave into its superclasses'
 * methods a lookup of the receiver in its map of mocks, by identity hash; a file channel's write
 * runs one of them ({@code AbstractInterruptibleChannel.begin}) inside the write's event, which a
 * replay answers from the recording without running it. A map keyed by the channels' hashes,
 * asked after each write, iterates in an order that follows them.
 */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class WovenReceiverHashes {
    private WovenReceiverHashes() {
    }

    public static void main(String[] args) throws Exception {
        // The JVM's identity hashes follow a per-thread sequence: a clock-driven number of earlier
        // hashes makes every plain run differ.
        long warmUp = System.nanoTime() % 97;
        for (long i = 0; i < warmUp; i++) {
            new Object().hashCode();
        }
        FileChannel mocked = Mockito.mock(FileChannel.class);
        Path dir = Files.createTempDirectory("woven");
        Map<Integer, String> byHash = new HashMap<>();
        for (int i = 0; i < 16; i++) {
            Path file = dir.resolve("f" + i);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.wrap(new byte[] {(byte) i}));
                byHash.put(System.identityHashCode(channel), "c" + i);
            }
            Files.delete(file);
        }
        Files.delete(dir);
        System.out.println("mock is a channel: " + (mocked instanceof FileChannel));
        System.out.println("channels by hash: " + byHash.values());
    }
}
