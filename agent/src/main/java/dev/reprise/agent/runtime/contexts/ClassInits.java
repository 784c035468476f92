package dev.reprise.agent.runtime.contexts;

import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.agent.runtime.ordering.SyncActions;
import dev.reprise.agent.runtime.ordering.ThreadRandoms;
/**
 * Static initializers. The JVM runs one on whichever thread first uses the class and makes the
 * others wait, so which thread runs it is a race, and a replay may run it on another thread than
 * the recording did. Its events therefore go to a stream of the class's own, read back by
 * whichever thread runs the initializer on replay.
 *
 * <p>A JDK class's ({@link #enter}): Reprise's own work uses JDK classes at different moments
 * when recording and when replaying, so the initializer may also run at another point. Its
 * context is quiet ({@link SyncActions#quiet}): the objects it builds are not yet shared, and
 * its ordering could not be matched with any thread's.
 *
 * <p>An application class's ({@link #enterOrdered}): it runs at the same point of the program's
 * own order, and its synchronization is the program's (it may publish through a volatile, start
 * threads, take locks others take). Its stream has an index like a thread's, so its events are
 * ordered against the threads' and theirs against it. That is enough for whichever thread runs
 * it: every event it is ordered after was, in the recording, completed before it, so by a
 * thread before that thread's own first use of the class, which that thread reaches on replay
 * without waiting for the initializer.
 *
 * <p>An initializer that runs inside an event, or on a thread that is not recorded, runs live as
 * before; so does a JDK class's, on replay, that the recording holds no events for, but in a
 * context of its own all the same ({@link ThreadCtx#baseDepth}): the objects it hashes get the
 * values the recording's context gave them (ImageIO's registry keys its providers by them, and
 * iterates them in that order), and the initializers it runs in turn open their own streams. An
 * application class's gets an empty stream then: any event it makes is a divergence, and the
 * initializers it runs in turn open their own streams.
 */
public final class ClassInits {
    private ClassInits() {
    }

    /** Before the initializer of {@code className}, a JDK class first loaded after start-up. */
    public static void enter(String className) {
        enter(className, false);
    }

    /** Before the initializer of {@code className}, an application class. */
    public static void enterOrdered(String className) {
        enter(className, true);
    }

    private static void enter(String className, boolean ordered) {
        if (!Rt.active) {
            return;
        }
        ThreadCtx cur = Rt.current();
        if (cur == ThreadCtx.UNRECORDED) {
            return;
        }
        int base = cur.baseDepth;
        if (cur.depth != base) {
            cur.depth++;
            return;
        }
        cur.depth = base + 1; // opening the stream reads and allocates: none of it is the program's
        ThreadCtx init = Session.current().openClassInit(className, ordered);
        cur.depth = base;
        init.outer = cur;
        ThreadRandoms.enterInit(init);
        Rt.swap(init);
    }

    /** After the initializer of {@code className}, also when it threw. */
    public static void exit(String className) {
        if (!Rt.active) {
            return;
        }
        ThreadCtx cur = Rt.current();
        if (cur == ThreadCtx.UNRECORDED) {
            return;
        }
        // The initializer's own context, or the one whose depth enter raised: an initializer does
        // not run twice, nor start another of the same class on its thread.
        if (className.equals(cur.initializing)) {
            if (!cur.jdkInit) {
                Session.current().endClassInit(cur);
            }
            ThreadCtx outer = cur.outer;
            ThreadRandoms.exitInit(cur);
            Rt.swap(outer);
            outer.depth = outer.baseDepth + 1; // closing the stream is Reprise's work
            Session.current().closeClassInit(cur);
            outer.depth = outer.baseDepth;
        } else {
            cur.depth--;
        }
    }
}
