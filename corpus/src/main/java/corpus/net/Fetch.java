package corpus.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A client of a web service in another process, at {@code args[0]} (a base URL ending in
 * {@code n=}): fetches it {@code args[1]} times with {@code HttpURLConnection}, posting a body every
 * other time; then meets the failures a client meets: a
 * connection refused, and a read whose timeout expires. Prints what it got.
 */
public final class Fetch {
    public static void main(String[] args) throws Exception {
        String base = args[0];
        int times = Integer.parseInt(args[1]);
        for (int i = 0; i < times; i++) {
            HttpURLConnection c = (HttpURLConnection) URI.create(base + i).toURL().openConnection();
            if (i % 2 == 1) {
                c.setDoOutput(true);
                try (OutputStream out = c.getOutputStream()) {
                    out.write(("payload " + i).getBytes(StandardCharsets.UTF_8));
                }
            }
            try (InputStream in = c.getInputStream()) {
                System.out.println(c.getResponseCode() + " " + new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), closedPort)) {
            System.out.println("connected to a closed port?");
        } catch (ConnectException e) {
            System.out.println("refused: " + e.getMessage());
        }
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), silent.getLocalPort()), 1000);
            s.setSoTimeout(200);
            s.getInputStream().read();
            System.out.println("read from a silent server?");
        } catch (SocketTimeoutException e) {
            System.out.println("timed out: " + e.getMessage());
        } catch (IOException e) {
            System.out.println("failed: " + e);
        }
    }
}
