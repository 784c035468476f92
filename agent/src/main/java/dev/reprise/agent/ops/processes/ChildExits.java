package dev.reprise.agent.ops.processes;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.concurrent.CompletableFuture;

import dev.reprise.agent.ops.threads.ManagedBlocks;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * Waits, while recording, for a process to exit, touching nothing the program shares. The JDK's
 * {@code ProcessHandle.onExit} completes through {@code handleAsync}: the reaper thread, which is
 * not recorded, then submits a task to the common pool, whose queue array the program's pool
 * threads scan. They would see a queue no replay has and take another path. Here the wait is on
 * the JDK's exit future itself; on a pool thread, inside the event, it neither helps nor
 * compensates the pool ({@link ManagedBlocks}).
 */
final class ChildExits {
    /** {@code ProcessHandleImpl.completion(pid, false)}: the JDK's future of the exit, not reaping. */
    private static final MethodHandle COMPLETION = JdkMethods.statik(JdkMethods.jdkClass("java.lang.ProcessHandleImpl"),
            "completion", MethodType.methodType(CompletableFuture.class, long.class, boolean.class));

    private ChildExits() {
    }

    /** Returns once the process has exited; an interrupt is kept for later, as {@code join} does. */
    static void await(long pid) {
        CompletableFuture<?> exit;
        try {
            exit = (CompletableFuture<?>) COMPLETION.invokeExact(pid, false);
        } catch (Throwable t) {
            throw new IllegalStateException("cannot wait for process " + pid, t);
        }
        exit.join();
    }
}
