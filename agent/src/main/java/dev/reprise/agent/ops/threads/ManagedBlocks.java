package dev.reprise.agent.ops.threads;

import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

import dev.reprise.agent.ops.Prologue;

/**
 * A pool thread that blocks in Reprise's live work inside an event (a child's exit awaited on
 * a common-pool thread, the JDK's {@code Condition} wait beneath it) must block as any other
 * thread does. {@code ForkJoinPool.managedBlock} would compensate: change the pool's counts,
 * perhaps start a spare worker, and help run the program's queued tasks, on the program's pool,
 * in code no event records. A replay, which answers the event from the recording, never does,
 * and the pool's other threads then read other counts and take other paths.
 */
public final class ManagedBlocks {
    private static final String POOL = "java/util/concurrent/ForkJoinPool";

    private ManagedBlocks() {
    }

    /** The JDK's own loop for a thread outside any pool. */
    @Prologue(owner = POOL, method = "managedBlock", desc = "(Ljava/util/concurrent/ForkJoinPool$ManagedBlocker;)V",
            kind = Prologue.Kind.INSIDE_EVENT)
    public static void managedBlock(ForkJoinPool.ManagedBlocker blocker) throws InterruptedException {
        while (!blocker.isReleasable() && !blocker.block()) {
            // block() returned false: not released yet, ask again.
        }
    }

    /** Helping the pool run its tasks before a wait is optional; inside an event it must not happen. */
    @Prologue(owner = POOL, method = "helpAsyncBlocker",
            desc = "(Ljava/util/concurrent/Executor;Ljava/util/concurrent/ForkJoinPool$ManagedBlocker;)V",
            kind = Prologue.Kind.INSIDE_EVENT)
    public static void helpAsyncBlocker(Executor executor, ForkJoinPool.ManagedBlocker blocker) {
    }
}
