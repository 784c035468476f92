package corpus.single;

import java.util.LinkedHashSet;
import java.util.Set;

import corpus.Expect;

/**
 * A single-threaded program whose finalizers change what it prints, as an interpreter's open
 * files leave its registry of files to close at exit when their finalizer closes them. Main
 * never starts a thread: under RTO it runs alone, its synchronization unordered, and the JVM's
 * finalizer thread runs the cleanups at moments set by collections. A replay must run each one
 * the recording ran, at the same point of main's run. Half the rounds wait for the finalizer by
 * sleeping, half by spinning on a lock, which makes no event but synchronization.
 */
@Expect
public final class CleanupsWhileAlone {
    private static final Set<Integer> OPEN = new LinkedHashSet<>();

    private final int id;

    private CleanupsWhileAlone(int id) {
        this.id = id;
        synchronized (OPEN) {
            OPEN.add(id);
        }
    }

    @Override
    @SuppressWarnings("deprecation")
    protected void finalize() {
        synchronized (OPEN) {
            OPEN.remove(id);
        }
    }

    private static long spins;

    private static void spin() {
        for (int i = 0; i < 200_000; i++) {
            synchronized (OPEN) {
                spins++;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        long checksum = 0;
        for (int round = 0; round < 40; round++) {
            for (int i = 0; i < 50; i++) {
                new CleanupsWhileAlone(round * 50 + i);
            }
            System.gc();
            if (round % 2 == 0) {
                Thread.sleep(2);
            } else {
                spin();
            }
            synchronized (OPEN) {
                for (int id : OPEN) {
                    checksum = checksum * 31 + id;
                }
                System.out.println("round " + round + ": " + OPEN.size() + " open, checksum " + Long.toHexString(checksum));
            }
        }
    }
}
