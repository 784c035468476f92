package dev.reprise.agent.ops.environment;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * What {@code ProcessHandle.Info} says of a process (its executable, arguments, command line,
 * start, CPU time and user), read from {@code /proc} by the JDK: an event, answered from the
 * recording on replay, where the process is another one or gone. Of the program's own process
 * it says what a plain run's says: the arguments and the command line leave Reprise's options
 * out ({@link OwnCommandLine}). Hooked where the JDK makes the answer, after it compared the
 * process's start with the handle's, so a replay's handle, of another start, gets it whole.
 */
public final class ProcessInfoOps {
    private static final String INFO = "java/lang/ProcessHandleImpl$Info";
    private static final Op PROCESS_INFO = Op.named("process.info");
    private static final Class<?> INFO_CLASS = JdkMethods.jdkClass(INFO.replace('/', '.'));
    private static final MethodHandle INFO_LIVE = JdkMethods.statik(INFO_CLASS, "info",
            MethodType.methodType(ProcessHandle.Info.class, long.class, long.class));
    private static final MethodHandle NEW_INFO = constructor();
    private static final VarHandle COMMAND = JdkMethods.field(INFO_CLASS, "command", String.class);
    private static final VarHandle COMMAND_LINE = JdkMethods.field(INFO_CLASS, "commandLine", String.class);
    private static final VarHandle ARGUMENTS = JdkMethods.field(INFO_CLASS, "arguments", String[].class);
    private static final VarHandle START = JdkMethods.field(INFO_CLASS, "startTime", long.class);
    private static final VarHandle TOTAL = JdkMethods.field(INFO_CLASS, "totalTime", long.class);
    private static final VarHandle USER = JdkMethods.field(INFO_CLASS, "user", String.class);

    private ProcessInfoOps() {
    }

    private static MethodHandle constructor() {
        try {
            return MethodHandles.privateLookupIn(INFO_CLASS, MethodHandles.lookup())
                    .findConstructor(INFO_CLASS, MethodType.methodType(void.class))
                    .asType(MethodType.methodType(ProcessHandle.Info.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach " + INFO_CLASS.getName() + "()", e);
        }
    }

    @Prologue(owner = INFO, method = "info", desc = "(JJ)Ljava/lang/ProcessHandle$Info;")
    public static ProcessHandle.Info info(long pid, long startTime) throws Throwable {
        // No digest of the pid: a replay's handle of its own process has the replaying JVM's.
        Ev ev = Ev.begin(PROCESS_INFO, 0, 0);
        ProcessHandle.Info info = ev.live() ? (ProcessHandle.Info) INFO_LIVE.invokeExact(pid, startTime)
                : (ProcessHandle.Info) NEW_INFO.invokeExact();
        if (ev.live() && pid == ProcessHandle.current().pid()) {
            withoutOwnOptions(info);
        }
        COMMAND.set(info, ev.s((String) COMMAND.get(info)));
        COMMAND_LINE.set(info, ev.s((String) COMMAND_LINE.get(info)));
        String[] args = (String[]) ARGUMENTS.get(info);
        int n = ev.i(args == null ? -1 : args.length);
        String[] coded = n < 0 ? null : new String[n];
        for (int i = 0; i < n; i++) {
            coded[i] = ev.s(args == null ? null : args[i]);
        }
        ARGUMENTS.set(info, coded);
        START.set(info, ev.j((long) START.get(info)));
        TOTAL.set(info, ev.j((long) TOTAL.get(info)));
        USER.set(info, ev.s((String) USER.get(info)));
        return info;
    }

    /** The arguments without Reprise's options, and the command line, where it lists them, too. */
    private static void withoutOwnOptions(ProcessHandle.Info info) {
        String[] args = (String[]) ARGUMENTS.get(info);
        if (args == null) {
            return;
        }
        String[] kept = OwnCommandLine.without(args);
        ARGUMENTS.set(info, kept);
        String line = (String) COMMAND_LINE.get(info);
        String listed = String.join(" ", args);
        if (line != null && line.endsWith(" " + listed)) {
            COMMAND_LINE.set(info, line.substring(0, line.length() - listed.length()) + String.join(" ", kept));
        }
    }
}
