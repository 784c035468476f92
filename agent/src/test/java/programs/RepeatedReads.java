package programs;

/** Fields tested and then read again, as RepeatedReadsTest names them with {@code --order-field}. */
public class RepeatedReads {
    public static int[] cache;
    public static int[] unnamed;
    public int count;

    public static int tested() {
        if (cache != null) {
            return cache.length;
        }
        return -1;
    }

    public int testedOnAnObject() {
        if (count > 0) {
            return count;
        }
        return 0;
    }

    /** The read after the test is also reached from {@code b}: no read may be merged. */
    public static int joined(boolean b) {
        if (b || cache != null) {
            return cache == null ? -1 : cache.length;
        }
        return 0;
    }

    public static int notNamed() {
        if (unnamed != null) {
            return unnamed.length;
        }
        return -1;
    }
}
