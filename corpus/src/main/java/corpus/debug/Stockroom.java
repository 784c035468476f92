package corpus.debug;

import java.util.HashMap;
import java.util.Map;

/**
 * A program to look at in a debugger (DebuggerTest). Items without their own {@code hashCode}
 * are keys of a hash map, so the map's order and text come from identity hashes; a clerk thread
 * waits until main opens the stockroom, then both take turns on one lock, so a thread the
 * debugger holds keeps the other waiting; {@code audit} reads the clock; the run ends with an
 * exception nothing catches. The lines marked {@code debugger:} are where the test sets its
 * breakpoints.
 */
public final class Stockroom {
    static int moved;
    static boolean clerkReady;
    static boolean open;

    static final class Item {
        final String name;

        Item(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name + "@" + Integer.toHexString(System.identityHashCode(this));
        }
    }

    public static void main(String[] args) throws Exception {
        Map<Item, Integer> stock = new HashMap<>();
        for (String name : new String[] {"bolt", "nut", "gear", "spring", "washer"}) {
            stock.put(new Item(name), name.length());
        }
        long started = System.nanoTime();
        Thread clerk = new Thread(() -> shelve(stock), "clerk");
        clerk.start();
        synchronized (Stockroom.class) {
            while (!clerkReady) {
                Stockroom.class.wait();
            }
            open = true; // debugger: hold main
            Stockroom.class.notifyAll();
        }
        for (int i = 0; i < 20; i++) {
            synchronized (Stockroom.class) {
                moved++;
            }
        }
        clerk.join();
        System.out.println("stock " + stock);
        System.out.println("weight " + weigh(stock) + ", moved " + moved + (System.nanoTime() > started ? "" : " backwards"));
        System.out.println(audit(stock));
        throw new IllegalStateException("out of " + stock.keySet().iterator().next().name);
    }

    static void shelve(Map<Item, Integer> stock) {
        try {
            synchronized (Stockroom.class) {
                clerkReady = true;
                Stockroom.class.notifyAll();
                while (!open) {
                    Stockroom.class.wait();
                }
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        for (int i = 0; i < 20; i++) {
            synchronized (Stockroom.class) {
                moved += 2;
            }
        }
    }

    static int weigh(Map<Item, Integer> stock) {
        int total = 0;
        for (Map.Entry<Item, Integer> e : stock.entrySet()) {
            total += weight(e.getKey(), e.getValue()); // debugger: step here
        }
        return total;
    }

    static int weight(Item item, int count) {
        return count * item.name.length();
    }

    static String audit(Map<Item, Integer> stock) {
        synchronized (Stockroom.class) {
            return stock.size() + " kinds, audited at " + (System.currentTimeMillis() > 0 ? "a time" : "no time");
        }
    }
}
