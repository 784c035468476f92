package dev.reprise.agent.ops.classes;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.runtime.ordering.Threads;

/**
 * The program's requests for a collection or for finalization ({@code System.gc},
 * {@code Runtime.runFinalization}). While main runs alone, a recording holds the cleanups the
 * collector sets off for a while, so that main goes on running alone ({@link Threads#endAlone});
 * a program that asks for a collection wants what it sets off, so the held cleanups go ahead.
 * No event: the request changes when a cleanup runs, which the recording notes where it does.
 */
public final class CollectionRequests {
    private CollectionRequests() {
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = "java/lang/System", method = "gc", desc = "()V")
    public static void systemGc(int site) {
        Threads.cleanupsWanted();
        System.gc();
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/Runtime", method = "gc", desc = "()V")
    public static void runtimeGc(Runtime r, int site) {
        Threads.cleanupsWanted();
        r.gc();
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = "java/lang/System", method = "runFinalization", desc = "()V")
    @SuppressWarnings("deprecation")
    public static void systemRunFinalization(int site) {
        Threads.cleanupsWanted();
        System.runFinalization();
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/Runtime", method = "runFinalization", desc = "()V")
    @SuppressWarnings("deprecation")
    public static void runtimeRunFinalization(Runtime r, int site) {
        Threads.cleanupsWanted();
        r.runFinalization();
    }
}
