package dev.reprise.agent.ops.processes;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;

/**
 * The {@code ProcessHandle} of a child, or of a process the program looked up by pid: as
 * {@link RecordedProcess}, each question is an event of the asking thread, answered live while
 * recording and from the recording on replay, where the process does not exist.
 */
final class RecordedHandle implements ProcessHandle {
    private static final Op ALIVE = Op.named("process.handle.alive");
    private static final Op DESTROY = Op.named("process.handle.destroy");
    private static final Op NORMAL_TERMINATION = Op.named("process.handle.normaltermination");
    private static final Op RELATED = Op.named("process.handle.related");
    private static final Op INFO = Op.named("process.handle.info");
    private static final Op EXIT = Op.named("process.handle.exit");
    private static final int DO_ALIVE = 0;
    private static final int DO_DESTROY = 1;
    private static final int DO_DESTROY_FORCIBLY = 2;
    private static final int DO_NORMAL_TERMINATION = 3;
    private static final int DO_EXIT = 4;
    private static final int PARENT = 0;
    private static final int CHILDREN = 1;
    private static final int DESCENDANTS = 2;

    /** The JDK's handle; null on replay. */
    private final ProcessHandle live;
    private final long pid;

    RecordedHandle(ProcessHandle live, long pid) {
        this.live = live;
        this.pid = pid;
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public Optional<ProcessHandle> parent() {
        ProcessHandle[] parent = related(PARENT);
        return parent.length == 0 ? Optional.empty() : Optional.of(parent[0]);
    }

    @Override
    public Stream<ProcessHandle> children() {
        return Arrays.stream(related(CHILDREN));
    }

    @Override
    public Stream<ProcessHandle> descendants() {
        return Arrays.stream(related(DESCENDANTS));
    }

    @Override
    public Info info() {
        if (!Rt.claim()) {
            return RecordedProcess.unclaimed(live).info();
        }
        Ev ev = Ev.begin(INFO, 0, 0);
        try {
            return new RecordedInfo(ev, ev.live() ? live.info() : null);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    /**
     * Completes, as the JDK's does, on a thread of the common pool, which waits for the exit in an
     * event of its own: the pool's threads are the program's, recorded and replayed.
     */
    @Override
    public CompletableFuture<ProcessHandle> onExit() {
        return CompletableFuture.supplyAsync(new Supplier<ProcessHandle>() {
            @Override
            public ProcessHandle get() {
                ask(EXIT, DO_EXIT);
                return RecordedHandle.this;
            }
        });
    }

    @Override
    public boolean supportsNormalTermination() {
        return ask(NORMAL_TERMINATION, DO_NORMAL_TERMINATION);
    }

    @Override
    public boolean destroy() {
        return ask(DESTROY, DO_DESTROY);
    }

    @Override
    public boolean destroyForcibly() {
        return ask(DESTROY, DO_DESTROY_FORCIBLY);
    }

    @Override
    public boolean isAlive() {
        return ask(ALIVE, DO_ALIVE);
    }

    @Override
    public int compareTo(ProcessHandle other) {
        return Long.compare(pid, other.pid());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RecordedHandle && ((RecordedHandle) other).pid == pid;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(pid);
    }

    @Override
    public String toString() {
        return String.valueOf(pid);
    }

    private boolean ask(Op op, int what) {
        if (!Rt.claim()) {
            return live(RecordedProcess.unclaimed(live), what);
        }
        Ev ev = Ev.begin(op, 0, what);
        try {
            return ev.z(ev.live() && live(live, what));
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    private static boolean live(ProcessHandle h, int what) {
        switch (what) {
            case DO_ALIVE:
                return h.isAlive();
            case DO_DESTROY:
                return h.destroy();
            case DO_DESTROY_FORCIBLY:
                return h.destroyForcibly();
            case DO_NORMAL_TERMINATION:
                return h.supportsNormalTermination();
            default:
                ChildExits.await(h.pid());
                return false;
        }
    }

    /** The parent, children or descendants, each a handle of this kind. */
    private ProcessHandle[] related(int which) {
        if (!Rt.claim()) {
            return wrap(liveRelated(RecordedProcess.unclaimed(live), which));
        }
        Ev ev = Ev.begin(RELATED, 0, which);
        try {
            ProcessHandle[] found = ev.live() ? liveRelated(live, which) : null;
            ProcessHandle[] handles = new ProcessHandle[ev.i(found == null ? 0 : found.length)];
            for (int i = 0; i < handles.length; i++) {
                handles[i] = new RecordedHandle(found == null ? null : found[i], ev.j(found == null ? 0 : found[i].pid()));
            }
            return handles;
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    private static ProcessHandle[] liveRelated(ProcessHandle h, int which) {
        switch (which) {
            case PARENT:
                Optional<ProcessHandle> parent = h.parent();
                return parent.isPresent() ? new ProcessHandle[] {parent.get()} : new ProcessHandle[0];
            case CHILDREN:
                return handles(h.children().toArray());
            default:
                return handles(h.descendants().toArray());
        }
    }

    /** Without a lambda: Reprise's code defines no classes the program might count. */
    private static ProcessHandle[] handles(Object[] found) {
        return Arrays.copyOf(found, found.length, ProcessHandle[].class);
    }

    private static ProcessHandle[] wrap(ProcessHandle[] live) {
        ProcessHandle[] handles = new ProcessHandle[live.length];
        for (int i = 0; i < live.length; i++) {
            handles[i] = new RecordedHandle(live[i], live[i].pid());
        }
        return handles;
    }

    /** What {@code info()} told, kept whole: the process may be gone by the next question. */
    private static final class RecordedInfo implements Info {
        private final String command;
        private final String commandLine;
        private final String[] arguments;
        private final Instant start;
        private final Duration cpu;
        private final String user;
        private final String text;

        RecordedInfo(Ev ev, Info live) {
            command = ev.s(live == null ? null : live.command().orElse(null));
            commandLine = ev.s(live == null ? null : live.commandLine().orElse(null));
            String[] args = live == null ? null : live.arguments().orElse(null);
            int n = ev.i(args == null ? -1 : args.length);
            arguments = n < 0 ? null : new String[n];
            for (int i = 0; i < n; i++) {
                arguments[i] = ev.s(args == null ? null : args[i]);
            }
            Instant s = live == null ? null : live.startInstant().orElse(null);
            start = ev.z(s != null) ? Instant.ofEpochSecond(ev.j(s == null ? 0 : s.getEpochSecond()),
                    ev.i(s == null ? 0 : s.getNano())) : null;
            Duration d = live == null ? null : live.totalCpuDuration().orElse(null);
            cpu = ev.z(d != null) ? Duration.ofNanos(ev.j(d == null ? 0 : d.toNanos())) : null;
            user = ev.s(live == null ? null : live.user().orElse(null));
            text = ev.s(live == null ? null : live.toString());
        }

        @Override
        public Optional<String> command() {
            return Optional.ofNullable(command);
        }

        @Override
        public Optional<String> commandLine() {
            return Optional.ofNullable(commandLine);
        }

        @Override
        public Optional<String[]> arguments() {
            return Optional.ofNullable(arguments == null ? null : arguments.clone());
        }

        @Override
        public Optional<Instant> startInstant() {
            return Optional.ofNullable(start);
        }

        @Override
        public Optional<Duration> totalCpuDuration() {
            return Optional.ofNullable(cpu);
        }

        @Override
        public Optional<String> user() {
            return Optional.ofNullable(user);
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
