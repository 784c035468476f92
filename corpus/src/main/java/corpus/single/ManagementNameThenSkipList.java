package corpus.single;

import corpus.Expect;
import java.lang.management.ManagementFactory;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Asks the runtime's management bean for its name, then fills a {@code ConcurrentSkipListMap}.
 * The name is {@code pid@host}: the JDK looks the host up, and its name cache keeps expiry times
 * in a skip list, whose inserts draw from the thread's secondary seed. A replay answers the
 * bean's call from the recording and runs none of that, so the program's own map must take its
 * index levels from the same seeds regardless.
 */
@Expect
public final class ManagementNameThenSkipList {
    private ManagementNameThenSkipList() {
    }

    public static void main(String[] args) throws Exception {
        String name = ManagementFactory.getRuntimeMXBean().getName();
        System.out.println("runtime named pid@host: " + name.contains("@"));
        ConcurrentSkipListMap<Integer, Integer> map = new ConcurrentSkipListMap<>();
        for (int i = 0; i < 300; i++) {
            map.put((i * 7919) % 1000, i);
        }
        System.out.println("keys " + map.size() + ", first " + map.firstKey() + ", last " + map.lastKey());
    }
}
