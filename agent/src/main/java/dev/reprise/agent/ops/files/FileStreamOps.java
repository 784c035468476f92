package dev.reprise.agent.ops.files;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

import dev.reprise.agent.ops.Buffers;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.Digest;
import dev.reprise.agent.runtime.Ev;
import dev.reprise.agent.runtime.JdkFiles;
import dev.reprise.agent.runtime.JdkMethods;
import dev.reprise.agent.runtime.Op;
import dev.reprise.agent.runtime.Rt;

/**
 * {@code FileInputStream} and {@code FileOutputStream}, stdin, stdout and stderr included. On
 * replay a stream is never opened (its descriptor stays invalid): reads return the recorded
 * bytes, and writes are checked against the recorded digest and dropped, except writes to the
 * process's stdout and stderr, which replay reproduces. Streams on the JDK's own files are
 * read live and not logged ({@link JdkFiles}).
 */
public final class FileStreamOps {
    private static final Op IN_OPEN = Op.named("file.in.open");
    private static final Op IN_READ = Op.named("file.in.read");
    private static final Op IN_READ_BYTE = Op.named("file.in.read1");
    private static final Op IN_READ_ALL = Op.named("file.in.readall");
    private static final Op IN_SKIP = Op.named("file.in.skip");
    private static final Op IN_AVAILABLE = Op.named("file.in.available");
    private static final Op IN_REGULAR = Op.named("file.in.regular");
    private static final Op OUT_OPEN = Op.named("file.out.open");
    private static final Op OUT_WRITE = Op.named("file.out.write");

    private static final MethodType BYTES_OFF_LEN = MethodType.methodType(int.class, byte[].class, int.class, int.class);
    private static final MethodHandle IN_OPEN_LIVE =
            JdkMethods.special(FileInputStream.class, "open", MethodType.methodType(void.class, String.class));
    private static final MethodHandle IN_READ_LIVE = JdkMethods.special(FileInputStream.class, "read", BYTES_OFF_LEN);
    private static final MethodHandle IN_READ_ARRAY_LIVE =
            JdkMethods.special(FileInputStream.class, "read", MethodType.methodType(int.class, byte[].class));
    private static final MethodHandle IN_READ_BYTE_LIVE =
            JdkMethods.special(FileInputStream.class, "read", MethodType.methodType(int.class));
    private static final MethodHandle IN_READ_ALL_LIVE =
            JdkMethods.special(FileInputStream.class, "readAllBytes", MethodType.methodType(byte[].class));
    private static final MethodHandle IN_READ_N_LIVE =
            JdkMethods.special(FileInputStream.class, "readNBytes", MethodType.methodType(byte[].class, int.class));
    private static final MethodHandle IN_SKIP_LIVE =
            JdkMethods.special(FileInputStream.class, "skip", MethodType.methodType(long.class, long.class));
    private static final MethodHandle IN_AVAILABLE_LIVE =
            JdkMethods.special(FileInputStream.class, "available", MethodType.methodType(int.class));
    private static final MethodHandle IN_REGULAR_LIVE =
            JdkMethods.specialIfPresent(FileInputStream.class, "isRegularFile", MethodType.methodType(boolean.class));
    private static final MethodHandle OUT_OPEN_LIVE = JdkMethods.special(FileOutputStream.class, "open",
            MethodType.methodType(void.class, String.class, boolean.class));
    private static final MethodHandle OUT_WRITE_LIVE = JdkMethods.special(FileOutputStream.class, "write",
            MethodType.methodType(void.class, byte[].class, int.class, int.class));
    private static final MethodHandle OUT_WRITE_ARRAY_LIVE = JdkMethods.special(FileOutputStream.class, "write",
            MethodType.methodType(void.class, byte[].class));
    private static final MethodHandle OUT_WRITE_BYTE_LIVE = JdkMethods.special(FileOutputStream.class, "write",
            MethodType.methodType(void.class, int.class));

    private static final VarHandle IN_PATH = JdkFiles.pathField(FileInputStream.class);

    private FileStreamOps() {
    }

    private static boolean jdkFile(FileInputStream in) {
        return JdkFiles.isJdkPath((String) IN_PATH.get(in));
    }

    @Prologue(owner = "java/io/FileInputStream", method = "open", desc = "(Ljava/lang/String;)V")
    public static void openIn(FileInputStream self, String path) throws Throwable {
        if (JdkFiles.isJdkPath(path)) {
            try {
                IN_OPEN_LIVE.invokeExact(self, JdkFiles.live(path));
                return;
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(IN_OPEN, 0, Digest.of(path));
        try {
            if (ev.live()) {
                IN_OPEN_LIVE.invokeExact(self, path);
            }
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/io/FileInputStream", method = "read", desc = "([BII)I")
    public static int read(FileInputStream self, byte[] b, int off, int len) throws Throwable {
        if (jdkFile(self)) {
            try {
                return (int) IN_READ_LIVE.invokeExact(self, b, off, len);
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(IN_READ, 0, len);
        try {
            return Buffers.read(ev, b, off, ev.i(ev.live() ? (int) IN_READ_LIVE.invokeExact(self, b, off, len) : 0));
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/io/FileInputStream", method = "read", desc = "([B)I")
    public static int read(FileInputStream self, byte[] b) throws Throwable {
        if (jdkFile(self)) {
            try {
                return (int) IN_READ_ARRAY_LIVE.invokeExact(self, b);
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(IN_READ, 0, b == null ? 0 : b.length);
        try {
            return Buffers.read(ev, b, 0, ev.i(ev.live() ? (int) IN_READ_ARRAY_LIVE.invokeExact(self, b) : 0));
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/io/FileInputStream", method = "read", desc = "()I")
    public static int read(FileInputStream self) throws Throwable {
        return number(IN_READ_BYTE, IN_READ_BYTE_LIVE, self);
    }

    @Prologue(owner = "java/io/FileInputStream", method = "readAllBytes", desc = "()[B")
    public static byte[] readAllBytes(FileInputStream self) throws Throwable {
        if (jdkFile(self)) {
            try {
                return (byte[]) IN_READ_ALL_LIVE.invokeExact(self);
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(IN_READ_ALL, 0, 0);
        try {
            return ev.blob(ev.live() ? (byte[]) IN_READ_ALL_LIVE.invokeExact(self) : null);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/io/FileInputStream", method = "readNBytes", desc = "(I)[B")
    public static byte[] readNBytes(FileInputStream self, int len) throws Throwable {
        if (jdkFile(self)) {
            try {
                return (byte[]) IN_READ_N_LIVE.invokeExact(self, len);
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(IN_READ_ALL, 0, len);
        try {
            return ev.blob(ev.live() ? (byte[]) IN_READ_N_LIVE.invokeExact(self, len) : null);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/io/FileInputStream", method = "skip", desc = "(J)J")
    public static long skip(FileInputStream self, long n) throws Throwable {
        if (jdkFile(self)) {
            try {
                return (long) IN_SKIP_LIVE.invokeExact(self, n);
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(IN_SKIP, 0, (int) n);
        try {
            return ev.j(ev.live() ? (long) IN_SKIP_LIVE.invokeExact(self, n) : 0);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/io/FileInputStream", method = "available", desc = "()I")
    public static int available(FileInputStream self) throws Throwable {
        return number(IN_AVAILABLE, IN_AVAILABLE_LIVE, self);
    }

    /** A call without arguments that returns an int, {@code ()int}: a byte, or a count. */
    private static int number(Op op, MethodHandle live, FileInputStream self) throws Throwable {
        if (jdkFile(self)) {
            try {
                return (int) live.invokeExact(self);
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(op, 0, 0);
        try {
            return ev.i(ev.live() ? (int) live.invokeExact(self) : 0);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    /** JDK 21+: picks between a channel transfer and a read loop in {@code transferTo}, {@code skip}. */
    @Prologue(owner = "java/io/FileInputStream", method = "isRegularFile", desc = "()Z", optional = true)
    public static boolean isRegularFile(FileInputStream self) throws Throwable {
        if (jdkFile(self)) {
            try {
                return (boolean) IN_REGULAR_LIVE.invokeExact(self);
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(IN_REGULAR, 0, 0);
        try {
            return ev.z(ev.live() && (boolean) IN_REGULAR_LIVE.invokeExact(self));
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/io/FileOutputStream", method = "open", desc = "(Ljava/lang/String;Z)V")
    public static void openOut(FileOutputStream self, String path, boolean append) throws Throwable {
        Ev ev = Ev.begin(OUT_OPEN, 0, Digest.of(path) ^ (append ? 1 : 0));
        try {
            if (ev.live()) {
                OUT_OPEN_LIVE.invokeExact(self, path, append);
            }
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/io/FileOutputStream", method = "write", desc = "([BII)V")
    public static void write(FileOutputStream self, byte[] b, int off, int len) throws Throwable {
        Ev ev = Ev.begin(OUT_WRITE, 0, Buffers.digest(b, off, len));
        try {
            if (ev.live() || isConsole(self)) {
                OUT_WRITE_LIVE.invokeExact(self, b, off, len);
            }
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/io/FileOutputStream", method = "write", desc = "([B)V")
    public static void write(FileOutputStream self, byte[] b) throws Throwable {
        Ev ev = Ev.begin(OUT_WRITE, 0, b == null ? 0 : Buffers.digest(b, 0, b.length));
        try {
            if (ev.live() || isConsole(self)) {
                OUT_WRITE_ARRAY_LIVE.invokeExact(self, b);
            }
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/io/FileOutputStream", method = "write", desc = "(I)V")
    public static void write(FileOutputStream self, int b) throws Throwable {
        Ev ev = Ev.begin(OUT_WRITE, 0, b & 0xFF);
        try {
            if (ev.live() || isConsole(self)) {
                OUT_WRITE_BYTE_LIVE.invokeExact(self, b);
            }
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    /** Writes to the process's stdout and stderr happen on replay too. */
    private static boolean isConsole(FileOutputStream out) throws java.io.IOException {
        FileDescriptor fd = out.getFD();
        return fd == FileDescriptor.out || fd == FileDescriptor.err;
    }
}
