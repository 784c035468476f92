package dev.reprise.agent.runtime.jdk;

import java.lang.reflect.Constructor;

/**
 * The thread group of Reprise's own threads (its log writer, its watches, the class cache's
 * writer), which the program must not see: a recording has others than its replays, and a program
 * that lists its JVM's threads (a thread-leak check, a thread dump in a log, Tomcat's check of a
 * stopped application's threads) would print or act on them. The group has no parent, so the
 * JDK's walks of the group tree from the system group ({@code ThreadGroup.enumerate},
 * {@code activeCount}) never reach it: JDK 17 walks the groups' own lists, JDK 19 and later
 * keep a thread in a listing only if its group descends from the one asked. The listings the JVM
 * makes natively (every thread's stack, the management bean's ids and dumps) are filtered
 * through {@link #isOwn} ({@code ops/threads/ThreadListings}).
 *
 * <p>Only threads that never run the program's code belong here: the threads a replay makes to
 * run recorded cleanups, or a recorded agent's {@code agentmain}, stand for threads the recorded
 * program saw.
 */
public final class OwnThreads {
    /** Made by the private constructor the JVM uses for the system group, the one without a parent. */
    public static final ThreadGroup GROUP = parentless();

    private OwnThreads() {
    }

    private static ThreadGroup parentless() {
        try {
            Constructor<ThreadGroup> c = ThreadGroup.class.getDeclaredConstructor();
            c.setAccessible(true);
            return c.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot make Reprise's thread group", e);
        }
    }

    /** A daemon thread of Reprise's, not started. */
    public static Thread daemon(Runnable task, String name) {
        Thread t = new Thread(GROUP, task, name);
        t.setDaemon(true);
        return t;
    }

    /** Whether {@code t} is one of Reprise's threads; false once it has ended, as the JDK forgets its group then. */
    public static boolean isOwn(Thread t) {
        return t.getThreadGroup() == GROUP;
    }
}
