package corpus.single;

/** Prints an environment variable's value, read by name and from the whole environment's map. */
public final class PrintsVariable {
    public static void main(String[] args) {
        System.out.println(args[0] + "=" + System.getenv(args[0]));
        System.out.println("in the map: " + System.getenv().get(args[0]));
    }
}
