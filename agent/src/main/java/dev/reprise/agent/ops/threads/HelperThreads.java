package dev.reprise.agent.ops.threads;

import java.lang.StackWalker.StackFrame;
import java.util.Iterator;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.reprise.agent.instrument.Catalogue;

/**
 * Which started threads act for the JVM rather than the program: the JDK's helper threads
 * ({@code InnocuousThread}: the common cleaner, reference handlers of its caches), which are not
 * recorded. The JDK's libraries that the program runs as its own ({@link Catalogue#isLibrary})
 * make such threads for the program too, and those are the program's: from JDK 21 on, an
 * asynchronous channel group's pool threads, and the HTTP client's keep-alive timer. Which
 * code started one is read off the stack, skipping the thread classes, the executors and
 * Reprise's own frames: a thread start is rare, and the stack is walked only for helper threads.
 */
final class HelperThreads {
    private static final String INNOCUOUS = "jdk.internal.misc.InnocuousThread";

    private HelperThreads() {
    }

    static boolean actsForTheJvm(Thread t) {
        return t.getClass().getName().equals(INNOCUOUS) && !StackWalker.getInstance().walk(new StartedByLibrary());
    }

    /** Whether the first frame past the thread, executor and Reprise frames is a library's. A class: no lambda to bootstrap. */
    private static final class StartedByLibrary implements Function<Stream<StackFrame>, Boolean> {
        @Override
        public Boolean apply(Stream<StackFrame> frames) {
            for (Iterator<StackFrame> i = frames.iterator(); i.hasNext(); ) {
                String c = i.next().getClassName();
                if (!c.startsWith("java.lang.") && !c.startsWith("jdk.internal.") && !c.startsWith("java.util.concurrent.")
                        && !c.startsWith("dev.reprise.")) {
                    return Catalogue.isLibrary(c.replace('.', '/'));
                }
            }
            return false;
        }
    }
}
