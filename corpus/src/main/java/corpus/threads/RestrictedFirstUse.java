package corpus.threads;

/**
 * Four threads make their first calls of restricted methods at once, each another one: loading a
 * native library that does not exist, through {@code System} or {@code Runtime}, by name or by
 * path. From JDK 24 on, the first restricted call of a module prints a warning naming its method;
 * which thread's call is first is a race. Expected: a replay prints the recording's warning,
 * from the recording's thread.
 */
public final class RestrictedFirstUse {
    private RestrictedFirstUse() {
    }

    public static void main(String[] args) throws Exception {
        String[] outcomes = new String[4];
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            int id = t;
            threads[t] = new Thread(() -> outcomes[id] = load(id), "restricted-" + t);
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int t = 0; t < outcomes.length; t++) {
            System.out.println("thread " + t + ": " + outcomes[t]);
        }
    }

    private static String load(int id) {
        String missing = "reprise-missing-" + id;
        try {
            switch (id) {
                case 0 -> System.loadLibrary(missing);
                case 1 -> System.load("/nonexistent/lib" + missing + ".so");
                case 2 -> Runtime.getRuntime().loadLibrary(missing);
                default -> Runtime.getRuntime().load("/nonexistent/lib" + missing + ".so");
            }
            return "loaded";
        } catch (UnsatisfiedLinkError e) {
            return "not loaded";
        }
    }
}
