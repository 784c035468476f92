package corpus.reflect;

import java.util.Arrays;

/**
 * Lists the packages the JVM has defined, as a script runtime does to find importable Java
 * packages: those with a class loaded, which a replay must list as its recording did, although
 * Reprise loads other JDK classes while replaying; and none of Reprise's own.
 */
public final class BootPackages {
    public static void main(String[] args) {
        Package[] all = Package.getPackages();
        String[] reprise = Arrays.stream(all).map(Package::getName).filter(n -> n.startsWith("dev.reprise"))
                .sorted().toArray(String[]::new);
        System.out.println("java.lang listed: " + Arrays.stream(all).anyMatch(p -> p.getName().equals("java.lang")));
        System.out.println("reprise's packages: " + Arrays.toString(reprise));
        String names = Arrays.stream(all).map(Package::getName).sorted().reduce("", (a, b) -> a + " " + b);
        System.out.println(all.length + " packages, names hashed " + names.hashCode());
    }
}
