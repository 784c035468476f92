package corpus.reflect;

import java.security.Provider;
import java.util.ServiceLoader;

/**
 * Prints service providers in ServiceLoader's order: two class-path providers, and the JDK's
 * security providers, which live in several modules registered in a per-run order at boot.
 */
public final class Services {
    private Services() {
    }

    public static void main(String[] args) {
        StringBuilder sb = new StringBuilder("greeters:");
        for (Greeter g : ServiceLoader.load(Greeter.class)) {
            sb.append(' ').append(g.greet());
        }
        sb.append("\nsecurity:");
        for (Provider p : ServiceLoader.load(Provider.class)) {
            sb.append(' ').append(p.getName());
        }
        sb.append("\ninstalled:");
        for (Provider p : ServiceLoader.loadInstalled(Provider.class)) {
            sb.append(' ').append(p.getName());
        }
        System.out.println(sb);
    }
}
