package dev.reprise.agent.ops.processes;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.runtime.events.Digest;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;

/**
 * A program that attaches to a JVM itself, through {@code com.sun.tools.attach} ({@code
 * -Djdk.attach.allowAttachSelf=true}, Byte Buddy's {@code ByteBuddyAgent.install()}): the
 * attach's natives signal the target's pid ({@code SIGQUIT}, which starts its attach listener),
 * check the socket file's owner, and speak the attach protocol over a Unix socket. Each is an
 * event: a replay signals no process and opens no socket, and the program reads the recorded
 * replies. The recorded JVM's attach listener loaded the agent and ran its {@code agentmain}
 * before it replied ({@link AttachedAgents}); the agents it loaded go with the close of the
 * command's socket, and a replay loads them there. Before, a replay ran the natives live: it
 * signalled the recorded pid, which on the replay's machine is another process or none.
 *
 * <p>jdk.attach is the application loader's module, which no hook class may need as the agent
 * starts: the live natives are looked up at the first call ({@link Live}), which the program's
 * attach makes, once jdk.attach is loaded.
 */
public final class AttachCalls {
    private static final String VM = "sun/tools/attach/VirtualMachineImpl";
    /** The package whose calls of the natives are rewritten. */
    private static final String PKG = "sun/tools/attach/";
    private static final Op SIGNAL = Op.named("attach.signal");
    private static final Op OWNER = Op.named("attach.owner");
    private static final Op SOCKET = Op.named("attach.socket");
    private static final Op CONNECT = Op.named("attach.connect");
    private static final Op READ = Op.named("attach.read");
    private static final Op WRITE = Op.named("attach.write");
    private static final Op CLOSE = Op.named("attach.close");

    private AttachCalls() {
    }

    /** The natives, looked up as the program's attach first calls one. */
    private static final class Live {
        static final MethodHandle SEND_QUIT = handle("sendQuitTo", void.class, int.class);
        static final MethodHandle CHECK_PERMISSIONS = handle("checkPermissions", void.class, String.class);
        static final MethodHandle SOCKET = handle("socket", int.class);
        static final MethodHandle CONNECT = handle("connect", void.class, int.class, String.class);
        static final MethodHandle READ = handle("read", int.class, int.class, byte[].class, int.class, int.class);
        static final MethodHandle WRITE = handle("write", void.class, int.class, byte[].class, int.class, int.class);
        static final MethodHandle CLOSE = handle("close", void.class, int.class);

        private static MethodHandle handle(String name, Class<?> returned, Class<?>... params) {
            try {
                Class<?> vm = Class.forName(VM.replace('/', '.'), false, ClassLoader.getSystemClassLoader());
                return MethodHandles.privateLookupIn(vm, MethodHandles.lookup()).findStatic(vm, name,
                        MethodType.methodType(returned, params));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot reach " + VM + "." + name, e);
            }
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = VM, method = "sendQuitTo", desc = "(I)V", alsoIn = PKG)
    public static void sendQuitTo(int pid) throws Throwable {
        sendQuitTo(Live.SEND_QUIT, pid);
    }

    @Claimed
    private static void sendQuitTo(MethodHandle live, int pid) throws Throwable {
        if (Ev.begin(SIGNAL, 0, pid).live()) {
            live.invokeExact(pid);
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = VM, method = "checkPermissions", desc = "(Ljava/lang/String;)V", alsoIn = PKG)
    public static void checkPermissions(String path) throws Throwable {
        checkPermissions(Live.CHECK_PERMISSIONS, path);
    }

    @Claimed
    private static void checkPermissions(MethodHandle live, String path) throws Throwable {
        if (Ev.begin(OWNER, 0, Digest.of(path)).live()) {
            live.invokeExact(path);
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = VM, method = "socket", desc = "()I", alsoIn = PKG)
    public static int socket() throws Throwable {
        return socket(Live.SOCKET);
    }

    @Claimed
    private static int socket(MethodHandle live) throws Throwable {
        Ev ev = Ev.begin(SOCKET, 0, 0);
        return ev.i(ev.live() ? (int) live.invokeExact() : 0);
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = VM, method = "connect", desc = "(ILjava/lang/String;)V", alsoIn = PKG)
    public static void connect(int fd, String path) throws Throwable {
        connect(Live.CONNECT, fd, path);
    }

    @Claimed
    private static void connect(MethodHandle live, int fd, String path) throws Throwable {
        if (Ev.begin(CONNECT, 0, Digest.of(path)).live()) {
            live.invokeExact(fd, path);
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = VM, method = "read", desc = "(I[BII)I", alsoIn = PKG)
    public static int read(int fd, byte[] b, int off, int len) throws Throwable {
        return read(Live.READ, fd, b, off, len);
    }

    @Claimed
    private static int read(MethodHandle live, int fd, byte[] b, int off, int len) throws Throwable {
        Ev ev = Ev.begin(READ, 0, len);
        int n = ev.i(ev.live() ? (int) live.invokeExact(fd, b, off, len) : 0);
        if (n > 0) {
            ev.fill(b, off, n);
        }
        return n;
    }

    /** The command's bytes are the digest: a replay that would send another command diverges. */
    @CallSite(kind = CallSite.Kind.STATIC, owner = VM, method = "write", desc = "(I[BII)V", alsoIn = PKG)
    public static void write(int fd, byte[] b, int off, int len) throws Throwable {
        write(Live.WRITE, fd, b, off, len);
    }

    @Claimed
    private static void write(MethodHandle live, int fd, byte[] b, int off, int len) throws Throwable {
        if (Ev.begin(WRITE, 0, Digest.of(b, off, len)).live()) {
            live.invokeExact(fd, b, off, len);
        }
    }

    /**
     * The command is answered by now: the agents the recorded JVM loaded for it are coded here,
     * and a replay loads them once the event has ended, before the program goes on.
     */
    @CallSite(kind = CallSite.Kind.STATIC, owner = VM, method = "close", desc = "(I)V", alsoIn = PKG)
    public static void close(int fd) throws Throwable {
        // Claimed by hand, not by @Claimed: the agents are loaded after the event has ended.
        if (!Rt.claim()) {
            Live.CLOSE.invokeExact(fd);
            return;
        }
        String[] agents;
        try {
            Ev ev = Ev.begin(CLOSE, 0, 0);
            if (ev.live()) {
                Live.CLOSE.invokeExact(fd);
            }
            agents = AttachedAgents.coded(ev);
            Rt.ended();
        } catch (Throwable t) {
            throw Rt.failed(t);
        }
        AttachedAgents.load(agents);
    }
}
