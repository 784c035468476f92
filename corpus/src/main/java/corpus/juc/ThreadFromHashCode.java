package corpus.juc;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Main starts its first thread from a key's {@code hashCode}, inside a ConcurrentHashMap's
 * {@code put}: program code that runs inside Reprise's unordered copy of the map's code for main
 * alone (as a key's {@code equals} does) can end the alone phase mid-call, which a recording
 * warns about. The thread does not touch the map.
 */
public final class ThreadFromHashCode {
    static final Thread WORKER = new Thread(() -> System.out.println("worker ran"));

    static final class Key {
        private boolean started;

        @Override
        public int hashCode() {
            if (!started) {
                started = true;
                WORKER.start();
            }
            return 1;
        }
    }

    public static void main(String[] args) throws Exception {
        ConcurrentHashMap<Key, String> map = new ConcurrentHashMap<>();
        map.put(new Key(), "v");
        WORKER.join();
        System.out.println("size " + map.size());
    }
}
