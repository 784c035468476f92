package corpus.single;

import java.nio.charset.Charset;

/**
 * Prints text outside ASCII on stdout and stderr, through the console streams whose encodings the
 * JVM fixed from the locale as it started, and names the default charset.
 */
public final class NonAsciiOutput {
    public static void main(String[] args) {
        System.out.println("default charset " + Charset.defaultCharset());
        System.out.println("h\u00e9llo \u2713 \u65e5\u672c");
        System.err.println("\u00fcber \u00e7a");
    }
}
