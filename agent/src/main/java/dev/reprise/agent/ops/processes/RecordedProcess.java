package dev.reprise.agent.ops.processes;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;

/**
 * The {@code Process} the program gets for a child ({@link ProcessOps#start}), recording and
 * replay alike. Whatever the program learns of the child it learns here, on its own threads: each
 * call is an event of the calling thread, which recording answers from the JDK's process and
 * replay from the recording, where no child exists. The JDK's own machinery (its reaper thread,
 * which waits for the child and drains its pipes) runs only while recording, and on threads that
 * are not recorded: when it saw the exit does not matter, only when the program did.
 */
final class RecordedProcess extends Process {
    private static final Op WAIT = Op.named("process.wait");
    private static final Op WAIT_TIMED = Op.named("process.wait.timed");
    private static final Op EXIT_VALUE = Op.named("process.exitvalue");
    private static final Op ALIVE = Op.named("process.alive");
    private static final Op DESTROY = Op.named("process.destroy");
    private static final Op DESTROY_FORCIBLY = Op.named("process.destroy.forcibly");
    private static final Op NORMAL_TERMINATION = Op.named("process.normaltermination");
    private static final Op DESCRIBE = Op.named("process.text");
    private static final int DO_WAIT = 0;
    private static final int DO_WAIT_TIMED = 1;
    private static final int DO_EXIT_VALUE = 2;
    private static final int DO_ALIVE = 3;
    private static final int DO_DESTROY = 4;
    private static final int DO_DESTROY_FORCIBLY = 5;
    private static final int DO_NORMAL_TERMINATION = 6;
    /** {@code exitValue}'s outcome for a child still running: no exit status is this wide. */
    private static final long NOT_EXITED = Long.MIN_VALUE;
    /**
     * How long recording waits, at the program's first sight of the child's exit, for the copies
     * of its inherited output to reach the console. A grandchild may keep the pipe open.
     */
    private static final long COPIED_MILLIS = 2000;

    /** The JDK's process; null on replay. */
    private final Process live;
    private final long pid;
    private final OutputStream stdin;
    private final InputStream stdout;
    private final InputStream stderr;
    /** Copiers of the output the program let the child inherit ({@link ConsoleCopier}). */
    private final List<ConsoleCopier> copiers = new ArrayList<>(2);

    RecordedProcess(Process live, long pid, boolean inheritOut, boolean inheritErr) {
        this.live = live;
        this.pid = pid;
        this.stdin = new ChildInput(live == null ? null : live.getOutputStream());
        this.stdout = output(live == null ? null : live.getInputStream(), inheritOut, "process stdout copier",
                ProcessOps.CONSOLE_OUT);
        this.stderr = output(live == null ? null : live.getErrorStream(), inheritErr, "process stderr copier",
                ProcessOps.CONSOLE_ERR);
    }

    /** The program's stream of a child's output; for an inherited one, nothing, as the JDK gives. */
    private InputStream output(InputStream pipe, boolean inherited, String copier, java.io.PrintStream console) {
        ChildOutput out = new ChildOutput(pipe);
        if (!inherited) {
            return out;
        }
        copiers.add(new ConsoleCopier(copier, out, console));
        return InputStream.nullInputStream();
    }

    /** Starts the copiers, each start an event of the program's thread, once the child's start is one. */
    void startCopiers() {
        for (ConsoleCopier c : copiers) {
            c.start();
        }
    }

    /** The live object for a call that cannot be an event: only a recording has one. */
    static <T> T unclaimed(T live) {
        if (live == null) {
            throw new IllegalStateException("a replayed child process was used where Reprise cannot replay it"
                    + " (inside another intercepted call, or from a thread that is not recorded)");
        }
        return live;
    }

    @Override
    public OutputStream getOutputStream() {
        return stdin;
    }

    @Override
    public InputStream getInputStream() {
        return stdout;
    }

    @Override
    public InputStream getErrorStream() {
        return stderr;
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public ProcessHandle toHandle() {
        return new RecordedHandle(live == null ? null : live.toHandle(), pid);
    }

    @Override
    public int waitFor() throws InterruptedException {
        return (int) call(WAIT, DO_WAIT, 0);
    }

    @Override
    public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        return call(WAIT_TIMED, DO_WAIT_TIMED, unit.toNanos(timeout)) != 0;
    }

    @Override
    public int exitValue() {
        long status = uninterrupted(EXIT_VALUE, DO_EXIT_VALUE);
        if (status == NOT_EXITED) {
            throw new IllegalThreadStateException("process hasn't exited");
        }
        return (int) status;
    }

    @Override
    public boolean isAlive() {
        return uninterrupted(ALIVE, DO_ALIVE) != 0;
    }

    @Override
    public void destroy() {
        uninterrupted(DESTROY, DO_DESTROY);
    }

    @Override
    public Process destroyForcibly() {
        uninterrupted(DESTROY_FORCIBLY, DO_DESTROY_FORCIBLY);
        return this;
    }

    @Override
    public boolean supportsNormalTermination() {
        return uninterrupted(NORMAL_TERMINATION, DO_NORMAL_TERMINATION) != 0;
    }

    /** The JDK's text names the exit status once the reaper saw it: when, is the recording's. */
    @Override
    public String toString() {
        if (!Rt.claim()) {
            return unclaimed(live).toString();
        }
        Ev ev = Ev.begin(DESCRIBE, 0, 0);
        try {
            return ev.s(ev.live() ? live.toString() : null);
        } finally {
            ev.end();
        }
    }

    private long uninterrupted(Op op, int what) {
        try {
            return call(op, what, 0);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e); // only the waits are interruptible
        }
    }

    /**
     * One call of the program's, as an event whose value is the call's outcome. Once it shows the
     * child exited, the copies of the child's inherited output are complete ({@link #copied}), and
     * the agents attached to this JVM while the child ran are loaded ({@link AttachedAgents}).
     */
    private long call(Op op, int what, long nanos) throws InterruptedException {
        if (!Rt.claim()) {
            return live(unclaimed(live), what, nanos);
        }
        Ev ev = Ev.begin(op, 0, Long.hashCode(nanos));
        String[] agents;
        long outcome;
        try {
            outcome = ev.j(ev.live() ? live(live, what, nanos) : 0);
            if (exited(what, outcome)) {
                copied(ev);
            }
            agents = AttachedAgents.coded(ev);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
        AttachedAgents.load(agents);
        return outcome;
    }

    private static long live(Process p, int what, long nanos) throws InterruptedException {
        switch (what) {
            case DO_WAIT:
                return p.waitFor();
            case DO_WAIT_TIMED:
                return p.waitFor(nanos, TimeUnit.NANOSECONDS) ? 1 : 0;
            case DO_EXIT_VALUE:
                try {
                    return p.exitValue();
                } catch (IllegalThreadStateException e) {
                    return NOT_EXITED;
                }
            case DO_ALIVE:
                return p.isAlive() ? 1 : 0;
            case DO_DESTROY:
                p.destroy();
                return 0;
            case DO_DESTROY_FORCIBLY:
                p.destroyForcibly();
                return 0;
            default:
                return p.supportsNormalTermination() ? 1 : 0;
        }
    }

    /** Whether a call's outcome shows the child exited. */
    private static boolean exited(int what, long outcome) {
        switch (what) {
            case DO_WAIT:
                return true;
            case DO_WAIT_TIMED:
                return outcome != 0;
            case DO_EXIT_VALUE:
                return outcome != NOT_EXITED;
            case DO_ALIVE:
                return outcome == 0;
            default:
                return false;
        }
    }

    /**
     * The program saw the child exit: as with a real inherited stdout, all the child wrote is on
     * the console by then. Recording waits for the copiers to reach the pipes' end (bounded) and
     * logs whether they did; replay then waits for its copiers, which replay the same writes.
     * Their writes are ordered with the program's own on the console's stream, so the wait only
     * keeps a replay's exit from cutting them off.
     */
    private void copied(Ev ev) throws InterruptedException {
        if (copiers.isEmpty()) {
            return;
        }
        boolean done = true;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(COPIED_MILLIS);
        for (ConsoleCopier c : copiers) {
            if (ev.live()) {
                c.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                done &= !c.isAlive();
            }
        }
        if (ev.z(done) && !ev.live()) {
            for (ConsoleCopier c : copiers) {
                c.join();
            }
        }
    }
}
