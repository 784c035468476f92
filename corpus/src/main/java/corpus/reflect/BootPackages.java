package corpus.reflect;

import java.util.Arrays;

/**
 * Lists the packages the JVM has defined, as a script runtime does to find importable Java
 * packages: none may be Reprise's, whose classes load at other moments in a recording and its
 * replays, and listing one would read Reprise's jar in the program's place.
 */
public final class BootPackages {
    public static void main(String[] args) {
        Package[] all = Package.getPackages();
        String[] reprise = Arrays.stream(all).map(Package::getName).filter(n -> n.startsWith("dev.reprise"))
                .sorted().toArray(String[]::new);
        System.out.println("java.lang listed: " + Arrays.stream(all).anyMatch(p -> p.getName().equals("java.lang")));
        System.out.println("reprise's packages: " + Arrays.toString(reprise));
    }
}
