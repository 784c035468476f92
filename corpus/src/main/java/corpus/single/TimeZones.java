package corpus.single;

import java.time.ZoneId;
import java.util.TimeZone;

/**
 * The default time zone, which the JDK computes when the program first needs it: from the
 * program's own {@code user.timezone} if it set one first ({@code args[0]}, as test suites and
 * servers do), or else from the operating system's zone ({@code TZ}, {@code /etc/localtime}).
 * Prints the property before and after, and the zone.
 */
public final class TimeZones {
    public static void main(String[] args) {
        System.out.println("user.timezone before: " + System.getProperty("user.timezone"));
        if (args.length > 0) {
            System.setProperty("user.timezone", args[0]);
        }
        System.out.println("default zone: " + TimeZone.getDefault().getID() + ", " + ZoneId.systemDefault());
        System.out.println("user.timezone after: " + System.getProperty("user.timezone"));
    }
}
