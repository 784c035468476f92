package corpus.reflect;

/** A service with two providers on the class path (META-INF/services). */
public interface Greeter {
    String greet();

    /** First provider listed. */
    final class English implements Greeter {
        @Override
        public String greet() {
            return "hello";
        }
    }

    /** Second provider listed. */
    final class French implements Greeter {
        @Override
        public String greet() {
            return "bonjour";
        }
    }
}
