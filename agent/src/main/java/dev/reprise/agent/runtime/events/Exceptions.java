package dev.reprise.agent.runtime.events;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

import dev.reprise.core.log.EventBuffer;
import dev.reprise.core.log.EventInput;

/**
 * A recorded operation's exception, written by the recording and rebuilt by a replay: its class,
 * message and stack trace. The trace is the program's business (a test runner prints it), so it
 * is the same in both: the frames inside the operation, which only the recording ran, are logged
 * (the JDK's {@code open0} under a {@code FileInputStream}), and the frames of the caller, the
 * program's, are each run's own stack below the hook. Reprise's frames appear in neither, nor does
 * the hooked method's prologue frame, a second frame of the method whose body the hook ran: the
 * trace is the one a run without Reprise prints.
 */
final class Exceptions {
    private static final String OURS = "dev.reprise.";
    /** {@code StackTraceElement.format}: which of the loader and module version its text drops. */
    private static final VarHandle FORMAT = formatField();

    private Exceptions() {
    }

    /**
     * Record: gives {@code t} the trace a run without Reprise would, and logs what a replay needs
     * of it. Called in the hook that caught {@code t}.
     */
    static void write(Throwable t, EventBuffer b) {
        b.putString(t.getClass().getName());
        b.putString(t.getMessage());
        StackTraceElement[] trace = t.getStackTrace();
        StackTraceElement[] caller = callerFrames(new Throwable().getStackTrace());
        boolean joined = endsWith(trace, caller);
        StackTraceElement[] inner = joined ? withoutOurs(Arrays.copyOf(trace, trace.length - caller.length)) : trace;
        b.putVarLong(joined ? 1 : 0);
        b.putVarLong(inner.length);
        for (StackTraceElement e : inner) {
            b.putString(e.getClassLoaderName());
            b.putString(e.getModuleName());
            b.putString(e.getModuleVersion());
            b.putString(e.getClassName());
            b.putString(e.getMethodName());
            b.putString(e.getFileName());
            b.putSignedVarLong(e.getLineNumber());
            b.putVarLong(FORMAT == null ? 0 : (byte) FORMAT.get(e));
        }
        if (joined) {
            t.setStackTrace(join(inner, caller));
        }
    }

    /** Replay: the recorded exception, thrown from the hook that is asking. */
    static Throwable read(EventInput in) {
        Throwable t = recreate(in.getString(), in.getString());
        boolean joined = in.getVarLong() == 1;
        StackTraceElement[] inner = new StackTraceElement[(int) in.getVarLong()];
        for (int i = 0; i < inner.length; i++) {
            StackTraceElement e = new StackTraceElement(in.getString(), in.getString(), in.getString(), in.getString(),
                    in.getString(), in.getString(), (int) in.getSignedVarLong());
            byte format = (byte) in.getVarLong();
            if (FORMAT != null) {
                FORMAT.set(e, format);
            }
            inner[i] = e;
        }
        t.setStackTrace(joined ? join(inner, callerFrames(t.getStackTrace())) : inner);
        return t;
    }

    /** The frames below the hook: {@code stack} (taken inside Reprise) without its top frames that are Reprise's or above them. */
    private static StackTraceElement[] callerFrames(StackTraceElement[] stack) {
        int i = 0;
        while (i < stack.length && !ours(stack[i])) {
            i++; // the JDK's own frames building the exception, above Reprise's
        }
        while (i < stack.length && ours(stack[i])) {
            i++;
        }
        return Arrays.copyOfRange(stack, i, stack.length);
    }

    /** The inner frames, then the caller's, without the caller's first frame if it is the prologue of the last inner one's method. */
    private static StackTraceElement[] join(StackTraceElement[] inner, StackTraceElement[] caller) {
        int skip = inner.length > 0 && caller.length > 0 && caller[0].getLineNumber() < 0
                && caller[0].getClassName().equals(inner[inner.length - 1].getClassName())
                && caller[0].getMethodName().equals(inner[inner.length - 1].getMethodName()) ? 1 : 0;
        StackTraceElement[] all = Arrays.copyOf(inner, inner.length + caller.length - skip);
        System.arraycopy(caller, skip, all, inner.length, caller.length - skip);
        return all;
    }

    private static boolean endsWith(StackTraceElement[] trace, StackTraceElement[] suffix) {
        if (suffix.length > trace.length) {
            return false;
        }
        for (int i = 1; i <= suffix.length; i++) {
            if (!trace[trace.length - i].equals(suffix[suffix.length - i])) {
                return false;
            }
        }
        return true;
    }

    private static StackTraceElement[] withoutOurs(StackTraceElement[] frames) {
        StackTraceElement[] kept = new StackTraceElement[frames.length];
        int n = 0;
        for (StackTraceElement e : frames) {
            if (!ours(e)) {
                kept[n++] = e;
            }
        }
        return Arrays.copyOf(kept, n);
    }

    private static boolean ours(StackTraceElement e) {
        return e.getClassName().startsWith(OURS);
    }

    private static Throwable recreate(String className, String message) {
        try {
            Class<?> c = Class.forName(className, false, null);
            if (Throwable.class.isAssignableFrom(c)) {
                try {
                    return (Throwable) c.getConstructor(String.class).newInstance(message);
                } catch (NoSuchMethodException e) {
                    return (Throwable) c.getConstructor().newInstance();
                }
            }
        } catch (ReflectiveOperationException | LinkageError e) {
            // fall through: the class is not a JDK one or cannot be built from a message
        }
        return new RuntimeException(className + ": " + message);
    }

    private static VarHandle formatField() {
        try {
            return MethodHandles.privateLookupIn(StackTraceElement.class, MethodHandles.lookup())
                    .findVarHandle(StackTraceElement.class, "format", byte.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // the text then shows the loader and version a JVM-made frame's would drop
        }
    }
}
