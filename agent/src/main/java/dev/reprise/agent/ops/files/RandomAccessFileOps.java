package dev.reprise.agent.ops.files;

import java.io.RandomAccessFile;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

import dev.reprise.agent.ops.Buffers;
import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.jdk.JdkFiles;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * {@code RandomAccessFile}. On replay the file is never opened: reads, lengths and positions
 * return what the recording saw; writes, seeks and truncations are checked against the recorded
 * digest and not performed. {@code getFilePointer}, and {@code length} and {@code setLength}
 * (native in JDK 17), are hooked at their call sites (the program's, and those of the JDK
 * packages outside java.base that work on its files), and reached through a program's subclass by
 * the overrides Reprise adds to it; an unclaimed call dispatches as the program's did, a claimed
 * one runs the JDK's method, not a program's override of it, inside the event.
 *
 * <p>The JDK's own files ({@link JdkFiles}) and ZIP archives ({@link ArchiveOps}) are opened
 * live and unlogged; an archive's reads happen inside {@code ZipFile}'s own hooks, which hold
 * the claim, so they pass through.
 */
public final class RandomAccessFileOps {
    private static final String RAF = "java/io/RandomAccessFile";

    private static final Op OPEN = Op.named("raf.open");
    private static final Op READ = Op.named("raf.read");
    private static final Op READ_BYTE = Op.named("raf.read1");
    private static final Op READ_LINE = Op.named("raf.readline");
    private static final Op WRITE = Op.named("raf.write");
    private static final Op SEEK = Op.named("raf.seek");
    private static final Op SKIP = Op.named("raf.skip");
    private static final Op POINTER = Op.named("raf.pointer");
    private static final Op LENGTH = Op.named("raf.length");
    private static final Op SET_LENGTH = Op.named("raf.setlength");
    private static final Op CLOSE = Op.named("raf.close");

    private static final MethodHandle OPEN_LIVE = handle("open", void.class, String.class, int.class);
    private static final MethodHandle READ_LIVE = handle("read", int.class, byte[].class, int.class, int.class);
    private static final MethodHandle READ_ARRAY_LIVE = handle("read", int.class, byte[].class);
    private static final MethodHandle READ_BYTE_LIVE = handle("read", int.class);
    private static final MethodHandle READ_LINE_LIVE = handle("readLine", String.class);
    private static final MethodHandle WRITE_LIVE = handle("write", void.class, byte[].class, int.class, int.class);
    private static final MethodHandle WRITE_ARRAY_LIVE = handle("write", void.class, byte[].class);
    private static final MethodHandle WRITE_BYTE_LIVE = handle("write", void.class, int.class);
    private static final MethodHandle WRITE_STRING_LIVE = handle("writeBytes", void.class, String.class);
    private static final MethodHandle WRITE_CHARS_LIVE = handle("writeChars", void.class, String.class);
    private static final MethodHandle SEEK_LIVE = handle("seek", void.class, long.class);
    private static final MethodHandle SKIP_LIVE = handle("skipBytes", int.class, int.class);
    private static final MethodHandle CLOSE_LIVE = handle("close", void.class);
    private static final MethodHandle POINTER_LIVE = handle("getFilePointer", long.class);
    private static final MethodHandle LENGTH_LIVE = handle("length", long.class);
    private static final MethodHandle SET_LENGTH_LIVE = handle("setLength", void.class, long.class);

    private static final VarHandle PATH = JdkFiles.pathField(RandomAccessFile.class);

    /*
     * JDK code outside java.base that works on the program's files through a RandomAccessFile,
     * and so calls the natives below at its own sites: image streams (ImageIO's files and its
     * disk cache), sound files, fonts the program creates, RMI's log, JFR's recording files.
     */
    private static final String IMAGE_STREAMS = "javax/imageio/stream/";
    private static final String SOUND = "com/sun/media/sound/";
    private static final String FONTS = "sun/font/";
    private static final String RMI_LOG = "sun/rmi/log/";
    private static final String JFR = "jdk/jfr/internal/";
    private static final String JFR_MANAGEMENT = "jdk/management/jfr/";

    private RandomAccessFileOps() {
    }

    private static MethodHandle handle(String name, Class<?> ret, Class<?>... params) {
        return JdkMethods.special(RandomAccessFile.class, name, MethodType.methodType(ret, params));
    }

    /** The JDK's own files are read live and unlogged. */
    private static boolean unlogged(RandomAccessFile raf) {
        return JdkFiles.isJdkPath((String) PATH.get(raf));
    }

    private static int digest(long v) {
        return (int) (v ^ (v >>> 32));
    }

    @Prologue(owner = RAF, method = "open", desc = "(Ljava/lang/String;I)V")
    public static void open(RandomAccessFile self, String path, int mode) throws Throwable {
        if (JdkFiles.isJdkPath(path) || ArchiveOps.archiveAtWork()) {
            String file = JdkFiles.isJdkPath(path) ? JdkFiles.live(path) : ArchiveCopies.opened(path);
            OPEN_LIVE.invokeExact(self, file, mode);
            return;
        }
        Ev ev = Ev.begin(OPEN, 0, Digest.of(path) ^ mode);
        if (ev.live()) {
            OPEN_LIVE.invokeExact(self, path, mode);
        }
    }

    @Prologue(owner = RAF, method = "read", desc = "([BII)I")
    public static int read(RandomAccessFile self, byte[] b, int off, int len) throws Throwable {
        if (unlogged(self)) {
            return (int) READ_LIVE.invokeExact(self, b, off, len);
        }
        Ev ev = Ev.begin(READ, 0, len);
        return Buffers.read(ev, b, off, ev.i(ev.live() ? (int) READ_LIVE.invokeExact(self, b, off, len) : 0));
    }

    @Prologue(owner = RAF, method = "read", desc = "([B)I")
    public static int read(RandomAccessFile self, byte[] b) throws Throwable {
        if (unlogged(self)) {
            return (int) READ_ARRAY_LIVE.invokeExact(self, b);
        }
        Ev ev = Ev.begin(READ, 0, b == null ? 0 : b.length);
        return Buffers.read(ev, b, 0, ev.i(ev.live() ? (int) READ_ARRAY_LIVE.invokeExact(self, b) : 0));
    }

    @Prologue(owner = RAF, method = "read", desc = "()I")
    public static int read(RandomAccessFile self) throws Throwable {
        if (unlogged(self)) {
            return (int) READ_BYTE_LIVE.invokeExact(self);
        }
        Ev ev = Ev.begin(READ_BYTE, 0, 0);
        return ev.i(ev.live() ? (int) READ_BYTE_LIVE.invokeExact(self) : 0);
    }

    /** JDK 25 reads the line's bytes with the private native {@code read0}. */
    @Prologue(owner = RAF, method = "readLine", desc = "()Ljava/lang/String;")
    public static String readLine(RandomAccessFile self) throws Throwable {
        if (unlogged(self)) {
            return (String) READ_LINE_LIVE.invokeExact(self);
        }
        Ev ev = Ev.begin(READ_LINE, 0, 0);
        return ev.s(ev.live() ? (String) READ_LINE_LIVE.invokeExact(self) : null);
    }

    @Prologue(owner = RAF, method = "write", desc = "([BII)V")
    public static void write(RandomAccessFile self, byte[] b, int off, int len) throws Throwable {
        if (unlogged(self)) {
            WRITE_LIVE.invokeExact(self, b, off, len);
            return;
        }
        Ev ev = Ev.begin(WRITE, 0, Buffers.digest(b, off, len));
        if (ev.live()) {
            WRITE_LIVE.invokeExact(self, b, off, len);
        }
    }

    @Prologue(owner = RAF, method = "write", desc = "([B)V")
    public static void write(RandomAccessFile self, byte[] b) throws Throwable {
        if (unlogged(self)) {
            WRITE_ARRAY_LIVE.invokeExact(self, b);
            return;
        }
        Ev ev = Ev.begin(WRITE, 0, b == null ? 0 : Buffers.digest(b, 0, b.length));
        if (ev.live()) {
            WRITE_ARRAY_LIVE.invokeExact(self, b);
        }
    }

    @Prologue(owner = RAF, method = "write", desc = "(I)V")
    public static void write(RandomAccessFile self, int b) throws Throwable {
        if (unlogged(self)) {
            WRITE_BYTE_LIVE.invokeExact(self, b);
            return;
        }
        Ev ev = Ev.begin(WRITE, 0, b & 0xFF);
        if (ev.live()) {
            WRITE_BYTE_LIVE.invokeExact(self, b);
        }
    }

    /** Writes through the private {@code writeBytes(byte[], int, int)}, not {@code write}. */
    @Prologue(owner = RAF, method = "writeBytes", desc = "(Ljava/lang/String;)V")
    public static void writeBytes(RandomAccessFile self, String s) throws Throwable {
        writeString(self, s, WRITE_STRING_LIVE);
    }

    /** Writes through the private {@code writeBytes(byte[], int, int)}, not {@code write}. */
    @Prologue(owner = RAF, method = "writeChars", desc = "(Ljava/lang/String;)V")
    public static void writeChars(RandomAccessFile self, String s) throws Throwable {
        writeString(self, s, WRITE_CHARS_LIVE);
    }

    private static void writeString(RandomAccessFile self, String s, MethodHandle live) throws Throwable {
        if (unlogged(self)) {
            live.invokeExact(self, s);
            return;
        }
        Ev ev = Ev.begin(WRITE, 0, Digest.of(s));
        if (ev.live()) {
            live.invokeExact(self, s);
        }
    }

    @Prologue(owner = RAF, method = "seek", desc = "(J)V")
    public static void seek(RandomAccessFile self, long pos) throws Throwable {
        if (unlogged(self)) {
            SEEK_LIVE.invokeExact(self, pos);
            return;
        }
        Ev ev = Ev.begin(SEEK, 0, digest(pos));
        if (ev.live()) {
            SEEK_LIVE.invokeExact(self, pos);
        }
    }

    @Prologue(owner = RAF, method = "skipBytes", desc = "(I)I")
    public static int skipBytes(RandomAccessFile self, int n) throws Throwable {
        if (unlogged(self)) {
            return (int) SKIP_LIVE.invokeExact(self, n);
        }
        Ev ev = Ev.begin(SKIP, 0, n);
        return ev.i(ev.live() ? (int) SKIP_LIVE.invokeExact(self, n) : 0);
    }

    /**
     * Replay runs the JDK's close too: on the never opened descriptor it closes nothing, but it
     * marks the file and its channel closed, which {@link ChannelParentClose} and the channel's
     * own checks read. An archive's file, opened live, is closed live too: a ZIP source closes it
     * itself when the file is no archive, and a replay may have failed to open it.
     */
    @Prologue(owner = RAF, method = "close", desc = "()V")
    public static void close(RandomAccessFile self) throws Throwable {
        if (unlogged(self) || ArchiveOps.archiveAtWork()) {
            CLOSE_LIVE.invokeExact(self);
            return;
        }
        Ev.begin(CLOSE, 0, 0);
        CLOSE_LIVE.invokeExact(self);
    }

    /**
     * Native in every version; java.base calls it only inside {@code skipBytes} and
     * {@code readLine}, both hooked. A replay without this at the image streams' sites called the
     * native on the never opened file, which threw.
     */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = RAF, method = "getFilePointer", desc = "()J", inherited = true,
            alsoIn = {IMAGE_STREAMS, SOUND, FONTS, RMI_LOG, JFR, JFR_MANAGEMENT})
    public static long getFilePointer(RandomAccessFile self, int site) throws Throwable {
        if (!Rt.claim()) {
            return self.getFilePointer();
        }
        if (unlogged(self)) {
            try {
                return (long) POINTER_LIVE.invokeExact(self);
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(POINTER, site, 0);
        try {
            return ev.j(ev.live() ? (long) POINTER_LIVE.invokeExact(self) : 0);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    /** Native in JDK 17; java.base calls it only inside {@code skipBytes}, and on ZIP archives. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = RAF, method = "length", desc = "()J", inherited = true,
            alsoIn = {IMAGE_STREAMS, SOUND, FONTS, RMI_LOG, JFR, JFR_MANAGEMENT})
    public static long length(RandomAccessFile self, int site) throws Throwable {
        if (!Rt.claim()) {
            return self.length();
        }
        if (unlogged(self)) {
            try {
                return (long) LENGTH_LIVE.invokeExact(self);
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(LENGTH, site, 0);
        try {
            return ev.j(ev.live() ? (long) LENGTH_LIVE.invokeExact(self) : 0);
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }

    /** Native in JDK 17. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = RAF, method = "setLength", desc = "(J)V", inherited = true,
            alsoIn = {IMAGE_STREAMS, SOUND, FONTS, RMI_LOG, JFR, JFR_MANAGEMENT})
    public static void setLength(RandomAccessFile self, long newLength, int site) throws Throwable {
        if (!Rt.claim()) {
            self.setLength(newLength);
            return;
        }
        if (unlogged(self)) {
            try {
                SET_LENGTH_LIVE.invokeExact(self, newLength);
                return;
            } finally {
                Rt.release();
            }
        }
        Ev ev = Ev.begin(SET_LENGTH, site, digest(newLength));
        try {
            if (ev.live()) {
                SET_LENGTH_LIVE.invokeExact(self, newLength);
            }
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }
}
