package dev.reprise.core.config;

/**
 * The packages whose classes are the JDK's (or Reprise's own), whatever loads them: their code
 * never names a class of the program. The agent instruments them as the JDK; the CLI keeps their
 * instrumented bytes apart from the program's fields ({@code CacheDir}).
 */
public final class JdkClassNames {
    private static final String[] PREFIXES = {"java/", "javax/", "jdk/", "sun/", "com/sun/", "dev/reprise/"};

    private JdkClassNames() {
    }

    /** Whether internal class name {@code name} is in the JDK's (or the agent's) packages. */
    public static boolean isJdk(String name) {
        for (String p : PREFIXES) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
