package dev.reprise.agent.runtime.jdk;

/** Which class loaders are the JDK's own: the boot loader (null) and the platform loader. */
public final class JdkLoaders {
    private JdkLoaders() {
    }

    /** Whether {@code loader} is the JDK's; every other loader's classes are the program's. */
    public static boolean isJdk(ClassLoader loader) {
        return loader == null || loader == ClassLoader.getPlatformClassLoader();
    }
}
