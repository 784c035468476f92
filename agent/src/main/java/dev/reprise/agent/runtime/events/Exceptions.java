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
public final class Exceptions {
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

    /** {@code e} as the frame of another method of its class, printed as {@code e} is (a native method's wrapped name). */
    public static StackTraceElement renamed(StackTraceElement e, String method) {
        StackTraceElement r = new StackTraceElement(e.getClassLoaderName(), e.getModuleName(), e.getModuleVersion(),
                e.getClassName(), method, e.getFileName(), e.getLineNumber());
        if (FORMAT != null) {
            FORMAT.set(r, (byte) FORMAT.get(e));
        }
        return r;
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

    /**
     * An exception of the recorded class with the recorded message: a JDK class, or one of the
     * program's (a library's native code throws its own), found through the thread's context
     * loader. A class with no constructor from a message is made without one, its message set.
     */
    private static Throwable recreate(String className, String message) {
        for (ClassLoader loader : new ClassLoader[] {null, Thread.currentThread().getContextClassLoader()}) {
            try {
                Class<?> c = Class.forName(className, false, loader);
                if (Throwable.class.isAssignableFrom(c)) {
                    try {
                        return (Throwable) c.getConstructor(String.class).newInstance(message);
                    } catch (NoSuchMethodException e) {
                        return unconstructed(c, message);
                    }
                }
            } catch (ReflectiveOperationException | LinkageError e) {
                // not there, or not made from a message: the next loader, or the fallback
            }
        }
        return new RuntimeException(className + ": " + message);
    }

    /**
     * An exception made without a constructor, its message set and the rest of {@code Throwable}'s
     * state as its constructor leaves it (the trace to fill, no cause, no suppressed exception):
     * a throwable whose state is left null takes its trace as fixed.
     */
    private static Throwable unconstructed(Class<?> c, String message) throws InstantiationException {
        Throwable made = new Throwable();
        Throwable t = (Throwable) Unconstructed.UNSAFE.allocateInstance(c);
        Unconstructed.copy(made, t);
        Unconstructed.UNSAFE.putReference(t, Unconstructed.MESSAGE, message);
        Unconstructed.UNSAFE.putReference(t, Unconstructed.CAUSE, t);
        t.setStackTrace(made.getStackTrace());
        return t;
    }

    /** {@code Throwable}'s fields, set in an exception made without a constructor; initialized at its first. */
    private static final class Unconstructed {
        static final jdk.internal.misc.Unsafe UNSAFE = jdk.internal.misc.Unsafe.getUnsafe();
        static final long MESSAGE = UNSAFE.objectFieldOffset(Throwable.class, "detailMessage");
        static final long CAUSE = UNSAFE.objectFieldOffset(Throwable.class, "cause");
        static final long SUPPRESSED = UNSAFE.objectFieldOffset(Throwable.class, "suppressedExceptions");
        static final long TRACE = UNSAFE.objectFieldOffset(Throwable.class, "stackTrace");

        /** The trace still to fill and the empty list of suppressed exceptions, as a constructor leaves them. */
        static void copy(Throwable from, Throwable to) {
            UNSAFE.putReference(to, SUPPRESSED, UNSAFE.getReference(from, SUPPRESSED));
            UNSAFE.putReference(to, TRACE, UNSAFE.getReference(from, TRACE));
        }
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
