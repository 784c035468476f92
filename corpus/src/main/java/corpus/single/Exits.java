package corpus.single;

/**
 * Ends in the way its argument says: {@code exit N} calls System.exit(N) after printing the time,
 * {@code throw} dies by an uncaught exception, {@code hook} prints from a shutdown hook.
 */
public final class Exits {
    public static void main(String[] args) {
        System.out.println("time " + System.currentTimeMillis());
        System.err.println("to stderr " + System.nanoTime());
        switch (args[0]) {
            case "exit" -> System.exit(Integer.parseInt(args[1]));
            case "throw" -> throw new IllegalStateException("boom at " + System.nanoTime());
            case "hook" -> {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("hook at " + System.nanoTime())));
                System.out.println("returning");
            }
            default -> System.out.println("unknown " + args[0]);
        }
    }
}
