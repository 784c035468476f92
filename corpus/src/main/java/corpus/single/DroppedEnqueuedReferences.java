package corpus.single;

import corpus.Expect;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

/**
 * A registry of weak references that the program lets go of wholesale (a list's {@code clear},
 * as a concurrent weak map drops a segment's old table), then drains their queue later. A
 * reference whose referent the collector took before the clear sits in the queue, and the queue
 * alone keeps it: the later poll returns it although the program dropped it. Which references
 * that is depends on when collections ran, which another thread's allocations move from run to
 * run; this prints how many the polls returned and a checksum of their ids.
 */
@Expect(plainRunsDiffer = true)
public final class DroppedEnqueuedReferences {
    private static byte[] garbage;
    private static byte[] otherGarbage;

    /** A weak reference that names what it stood for. */
    private static final class Tag extends WeakReference<byte[]> {
        final int id;

        Tag(int id, byte[] referent, ReferenceQueue<byte[]> queue) {
            super(referent, queue);
            this.id = id;
        }
    }

    private DroppedEnqueuedReferences() {
    }

    public static void main(String[] args) throws InterruptedException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6_000;
        Thread allocator = new Thread(() -> {
            for (int i = 0; i < rounds * 4; i++) {
                otherGarbage = new byte[2048];
            }
        });
        allocator.start();
        ReferenceQueue<byte[]> queue = new ReferenceQueue<>();
        List<Tag> registry = new ArrayList<>();
        long polled = 0;
        long ids = 0;
        for (int r = 0; r < rounds; r++) {
            registry.add(new Tag(r, new byte[1024], queue)); // its referent is garbage at once
            garbage = new byte[512 + (r & 511)];
            if (r % 500 == 200) {
                System.gc(); // the block's first referents go, and their references to the queue
            }
            if (r % 500 == 499) {
                registry.clear(); // dropped unread: those the collector had cleared stay queued
            }
            if (r % 1500 == 1000) {
                System.gc(); // takes the dropped references the queue does not hold
                for (Tag t; (t = (Tag) queue.poll()) != null; ) {
                    polled++;
                    ids = ids * 31 + t.id;
                }
            }
        }
        allocator.join();
        registry.clear();
        System.gc();
        for (Tag t; (t = (Tag) queue.remove(200)) != null; ) {
            polled++;
            ids = ids * 31 + t.id;
        }
        System.out.println("rounds " + rounds + ", polled " + polled + " (ids " + Long.toHexString(ids) + ")");
    }
}
