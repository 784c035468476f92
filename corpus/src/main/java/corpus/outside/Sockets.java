package corpus.outside;

import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * Talks to itself through one socket API, {@code args[0]}: {@code tcp} ({@code ServerSocket} and
 * {@code Socket}), {@code nio} (socket channels), {@code udp} ({@code DatagramSocket}),
 * {@code async} (asynchronous channels, the server's side in completion handlers on the default
 * group's pool threads) on the loopback interface, or {@code unix} (a Unix domain socket at the
 * path {@code args[1]}).
 */
public final class Sockets {
    private static final byte[] HELLO = "hello\n".getBytes(StandardCharsets.UTF_8);

    public static void main(String[] args) throws Exception {
        System.out.println("before the network");
        byte[] got = switch (args[0]) {
            case "tcp" -> tcp();
            case "nio" -> channels(ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)));
            case "udp" -> udp();
            case "async" -> async();
            case "unix" -> channels(ServerSocketChannel.open(StandardProtocolFamily.UNIX)
                    .bind(UnixDomainSocketAddress.of(Path.of(args[1]))));
            default -> throw new IllegalArgumentException(args[0]);
        };
        System.out.print("received " + new String(got, StandardCharsets.UTF_8));
    }

    private static byte[] tcp() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket accepted = server.accept()) {
            client.getOutputStream().write(HELLO);
            InputStream in = accepted.getInputStream();
            return in.readNBytes(HELLO.length);
        }
    }

    private static byte[] channels(ServerSocketChannel server) throws Exception {
        try (server; SocketChannel client = SocketChannel.open(server.getLocalAddress()); SocketChannel accepted = server.accept()) {
            client.write(ByteBuffer.wrap(HELLO));
            ByteBuffer got = ByteBuffer.allocate(HELLO.length);
            while (got.hasRemaining()) {
                accepted.read(got);
            }
            return got.array();
        }
    }

    private static byte[] async() throws Exception {
        try (AsynchronousServerSocketChannel server = AsynchronousServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                AsynchronousSocketChannel client = AsynchronousSocketChannel.open()) {
            CompletableFuture<byte[]> received = new CompletableFuture<>();
            server.accept(null, new CompletionHandler<AsynchronousSocketChannel, Void>() {
                @Override
                public void completed(AsynchronousSocketChannel accepted, Void nothing) {
                    ByteBuffer got = ByteBuffer.allocate(HELLO.length);
                    accepted.read(got, got, new CompletionHandler<Integer, ByteBuffer>() {
                        @Override
                        public void completed(Integer n, ByteBuffer buffer) {
                            if (n < 0 || !buffer.hasRemaining()) {
                                received.complete(buffer.array());
                            } else {
                                accepted.read(buffer, buffer, this);
                            }
                        }

                        @Override
                        public void failed(Throwable t, ByteBuffer buffer) {
                            received.completeExceptionally(t);
                        }
                    });
                }

                @Override
                public void failed(Throwable t, Void nothing) {
                    received.completeExceptionally(t);
                }
            });
            client.connect(server.getLocalAddress()).get();
            client.write(ByteBuffer.wrap(HELLO)).get();
            return received.get();
        }
    }

    private static byte[] udp() throws Exception {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            socket.send(new DatagramPacket(HELLO, HELLO.length, socket.getLocalSocketAddress()));
            DatagramPacket got = new DatagramPacket(new byte[HELLO.length], HELLO.length);
            socket.receive(got);
            return got.getData();
        }
    }
}
