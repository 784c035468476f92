package corpus.single;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Creates loggers it does not keep, as a test framework's classes do, and lets the collector clear
 * them: which ones the JDK's logger registry still holds at exit, when its shutdown hook resets
 * every logger it lists, is the collector's race. One logger is kept and used.
 */
public final class DroppedLoggers {
    public static void main(String[] args) {
        Logger kept = Logger.getLogger("corpus.kept");
        kept.setLevel(Level.OFF);
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 400; i++) {
                Logger.getLogger("corpus.dropped." + round + "." + i).setLevel(Level.FINE);
            }
            System.gc();
        }
        kept.info("not printed");
        System.out.println("kept logger level " + kept.getLevel());
    }
}
