package dev.reprise.agent.ops.files;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

import dev.reprise.agent.ops.Buffers;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.jdk.JdkFiles;
import dev.reprise.agent.runtime.jdk.JdkMethods;

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
            IN_OPEN_LIVE.invokeExact(self, JdkFiles.live(path));
            return;
        }
        Ev ev = Ev.begin(IN_OPEN, 0, Digest.of(path));
        if (ev.live()) {
            IN_OPEN_LIVE.invokeExact(self, path);
        }
    }

    @Prologue(owner = "java/io/FileInputStream", method = "read", desc = "([BII)I")
    public static int read(FileInputStream self, byte[] b, int off, int len) throws Throwable {
        if (jdkFile(self)) {
            return (int) IN_READ_LIVE.invokeExact(self, b, off, len);
        }
        Ev ev = Ev.begin(IN_READ, 0, len);
        return Buffers.read(ev, b, off, ev.i(ev.live() ? (int) IN_READ_LIVE.invokeExact(self, b, off, len) : 0));
    }

    @Prologue(owner = "java/io/FileInputStream", method = "read", desc = "([B)I")
    public static int read(FileInputStream self, byte[] b) throws Throwable {
        if (jdkFile(self)) {
            return (int) IN_READ_ARRAY_LIVE.invokeExact(self, b);
        }
        Ev ev = Ev.begin(IN_READ, 0, b == null ? 0 : b.length);
        return Buffers.read(ev, b, 0, ev.i(ev.live() ? (int) IN_READ_ARRAY_LIVE.invokeExact(self, b) : 0));
    }

    @Prologue(owner = "java/io/FileInputStream", method = "read", desc = "()I")
    public static int read(FileInputStream self) throws Throwable {
        return number(IN_READ_BYTE, IN_READ_BYTE_LIVE, self);
    }

    @Prologue(owner = "java/io/FileInputStream", method = "readAllBytes", desc = "()[B")
    public static byte[] readAllBytes(FileInputStream self) throws Throwable {
        if (jdkFile(self)) {
            return (byte[]) IN_READ_ALL_LIVE.invokeExact(self);
        }
        Ev ev = Ev.begin(IN_READ_ALL, 0, 0);
        return ev.blob(ev.live() ? (byte[]) IN_READ_ALL_LIVE.invokeExact(self) : null);
    }

    @Prologue(owner = "java/io/FileInputStream", method = "readNBytes", desc = "(I)[B")
    public static byte[] readNBytes(FileInputStream self, int len) throws Throwable {
        if (jdkFile(self)) {
            return (byte[]) IN_READ_N_LIVE.invokeExact(self, len);
        }
        Ev ev = Ev.begin(IN_READ_ALL, 0, len);
        return ev.blob(ev.live() ? (byte[]) IN_READ_N_LIVE.invokeExact(self, len) : null);
    }

    @Prologue(owner = "java/io/FileInputStream", method = "skip", desc = "(J)J")
    public static long skip(FileInputStream self, long n) throws Throwable {
        if (jdkFile(self)) {
            return (long) IN_SKIP_LIVE.invokeExact(self, n);
        }
        Ev ev = Ev.begin(IN_SKIP, 0, (int) n);
        return ev.j(ev.live() ? (long) IN_SKIP_LIVE.invokeExact(self, n) : 0);
    }

    @Prologue(owner = "java/io/FileInputStream", method = "available", desc = "()I")
    public static int available(FileInputStream self) throws Throwable {
        return number(IN_AVAILABLE, IN_AVAILABLE_LIVE, self);
    }

    /** A call without arguments that returns an int, {@code ()int}: a byte, or a count. */
    private static int number(Op op, MethodHandle live, FileInputStream self) throws Throwable {
        if (jdkFile(self)) {
            return (int) live.invokeExact(self);
        }
        Ev ev = Ev.begin(op, 0, 0);
        return ev.i(ev.live() ? (int) live.invokeExact(self) : 0);
    }

    /** JDK 21+: picks between a channel transfer and a read loop in {@code transferTo}, {@code skip}. */
    @Prologue(owner = "java/io/FileInputStream", method = "isRegularFile", desc = "()Z", optional = true)
    public static boolean isRegularFile(FileInputStream self) throws Throwable {
        if (jdkFile(self)) {
            return (boolean) IN_REGULAR_LIVE.invokeExact(self);
        }
        Ev ev = Ev.begin(IN_REGULAR, 0, 0);
        return ev.z(ev.live() && (boolean) IN_REGULAR_LIVE.invokeExact(self));
    }

    @Prologue(owner = "java/io/FileOutputStream", method = "open", desc = "(Ljava/lang/String;Z)V")
    public static void openOut(FileOutputStream self, String path, boolean append) throws Throwable {
        Ev ev = Ev.begin(OUT_OPEN, 0, Digest.of(path) ^ (append ? 1 : 0));
        if (ev.live()) {
            OUT_OPEN_LIVE.invokeExact(self, path, append);
        }
    }

    @Prologue(owner = "java/io/FileOutputStream", method = "write", desc = "([BII)V")
    public static void write(FileOutputStream self, byte[] b, int off, int len) throws Throwable {
        Ev ev = Ev.begin(OUT_WRITE, 0, Buffers.digest(b, off, len));
        if (ev.live() || isConsole(self)) {
            OUT_WRITE_LIVE.invokeExact(self, b, off, len);
        }
    }

    @Prologue(owner = "java/io/FileOutputStream", method = "write", desc = "([B)V")
    public static void write(FileOutputStream self, byte[] b) throws Throwable {
        Ev ev = Ev.begin(OUT_WRITE, 0, b == null ? 0 : Buffers.digest(b, 0, b.length));
        if (ev.live() || isConsole(self)) {
            OUT_WRITE_ARRAY_LIVE.invokeExact(self, b);
        }
    }

    @Prologue(owner = "java/io/FileOutputStream", method = "write", desc = "(I)V")
    public static void write(FileOutputStream self, int b) throws Throwable {
        Ev ev = Ev.begin(OUT_WRITE, 0, b & 0xFF);
        if (ev.live() || isConsole(self)) {
            OUT_WRITE_BYTE_LIVE.invokeExact(self, b);
        }
    }

    /** Writes to the process's stdout and stderr happen on replay too. */
    private static boolean isConsole(FileOutputStream out) throws java.io.IOException {
        FileDescriptor fd = out.getFD();
        return fd == FileDescriptor.out || fd == FileDescriptor.err;
    }
}
