package dev.reprise.cli.debug;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.Arrays;

/**
 * One JDWP connection: to the replay's JVM, where the proxy is the debugger, or to the user's
 * debugger, where the proxy is the VM. One thread reads it; any thread may send, whole packets
 * under the output's lock.
 */
final class JdwpLink implements Closeable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    private JdwpLink(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    /** The proxy as the debugger: the debugger side greets first, the VM answers alike. */
    static JdwpLink toVm(Socket socket) throws IOException {
        JdwpLink link = new JdwpLink(socket);
        link.out.write(JdwpPacket.HANDSHAKE);
        link.out.flush();
        link.expectHandshake();
        return link;
    }

    /** The proxy as the VM, to a debugger whose handshake the proxy has read (to tell it from a request). */
    static JdwpLink toDebugger(Socket socket) throws IOException {
        JdwpLink link = new JdwpLink(socket);
        link.out.write(JdwpPacket.HANDSHAKE);
        link.out.flush();
        return link;
    }

    private void expectHandshake() throws IOException {
        byte[] got = in.readNBytes(JdwpPacket.HANDSHAKE.length);
        if (!Arrays.equals(got, JdwpPacket.HANDSHAKE)) {
            throw new IOException("not a JDWP peer (no handshake)");
        }
    }

    JdwpPacket read() throws IOException {
        return JdwpPacket.read(in);
    }

    void send(JdwpPacket p) throws IOException {
        synchronized (out) {
            p.write(out);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
