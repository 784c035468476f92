package corpus.net;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Virtual threads blocked on sockets (JDK 21 and later; reached reflectively, as the corpus is
 * compiled for 17): three virtual threads serve one {@code ServerSocket} on the loopback
 * interface, each accepting connections and echoing their lines, while four virtual clients
 * connect, three by {@code Socket} and one by a blocking {@code SocketChannel}, and exchange
 * lines. A virtual thread blocked in accept, connect or read parks, and the JDK's poller wakes
 * it. Main prints, client by client, the answers and which server sent them, then how many
 * connections each server took. On an older JDK it says virtual threads are unavailable.
 */
public final class VirtualSockets {
    private static final int SERVERS = 3;
    private static final int CLIENTS = 4;
    private static final int LINES = 3;

    public static void main(String[] args) throws Exception {
        Method ofVirtual;
        Method start;
        try {
            ofVirtual = Thread.class.getMethod("ofVirtual");
            start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
        } catch (NoSuchMethodException | ClassNotFoundException e) {
            System.out.println("virtual threads unavailable on this JDK");
            return;
        }
        Method isVirtual = Thread.class.getMethod("isVirtual");
        try (ServerSocket server = new ServerSocket(0, CLIENTS, InetAddress.getLoopbackAddress())) {
            List<AtomicInteger> served = new ArrayList<>();
            List<Thread> servers = new ArrayList<>();
            for (int s = 0; s < SERVERS; s++) {
                int who = s;
                AtomicInteger connections = new AtomicInteger();
                served.add(connections);
                Runnable serve = () -> serve(server, who, connections);
                servers.add((Thread) start.invoke(ofVirtual.invoke(null), serve));
            }
            List<StringBuilder> answers = new ArrayList<>();
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int who = c;
                StringBuilder got = new StringBuilder();
                answers.add(got);
                Runnable talk = () -> client(server.getLocalPort(), who, isVirtual, got);
                clients.add((Thread) start.invoke(ofVirtual.invoke(null), talk));
            }
            for (Thread client : clients) {
                client.join();
            }
            server.close();
            for (Thread s : servers) {
                s.join();
            }
            for (int c = 0; c < CLIENTS; c++) {
                System.out.println("client " + c + ":" + answers.get(c));
            }
            StringBuilder counts = new StringBuilder();
            for (int s = 0; s < SERVERS; s++) {
                counts.append(' ').append(served.get(s).get());
            }
            System.out.println("connections per server:" + counts);
        }
    }

    /** Accepts connections until the server socket is closed, and echoes each one's lines. */
    private static void serve(ServerSocket server, int who, AtomicInteger connections) {
        while (true) {
            try (Socket connection = server.accept()) {
                connections.incrementAndGet();
                BufferedReader in = new BufferedReader(new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(connection.getOutputStream(), true, StandardCharsets.UTF_8);
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    out.println(line + " echoed by server " + who);
                }
            } catch (Exception e) {
                return;
            }
        }
    }

    /** Client 0 talks through a blocking {@code SocketChannel}, the others through a {@code Socket}. */
    private static void client(int port, int who, Method isVirtual, StringBuilder got) {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        try {
            got.append(" virtual ").append(isVirtual.invoke(Thread.currentThread()));
            if (who == 0) {
                try (SocketChannel channel = SocketChannel.open(address)) {
                    talk(who, new BufferedReader(Channels.newReader(channel, StandardCharsets.UTF_8)),
                            new PrintWriter(Channels.newWriter(channel, StandardCharsets.UTF_8), true), got);
                }
            } else {
                try (Socket socket = new Socket(address.getAddress(), port)) {
                    talk(who, new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8)),
                            new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8), got);
                }
            }
        } catch (Exception e) {
            got.append(" failed: ").append(e);
        }
    }

    private static void talk(int who, BufferedReader in, PrintWriter out, StringBuilder got) throws Exception {
        for (int i = 0; i < LINES; i++) {
            out.println("line " + i + " of client " + who);
            got.append(" [").append(in.readLine()).append(']');
        }
    }
}
