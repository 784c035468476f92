package corpus.net;

import java.net.DatagramPacket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.MulticastSocket;
import java.net.NetworkInterface;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Multicast on the loopback interface only: two receivers bound to group 239.255.42.99 join it on
 * {@code lo}, each on a thread of its own, and main sends the group five datagrams from
 * {@code 127.0.0.1} with {@code lo} as the outgoing interface and a time-to-live of 0, so that no
 * datagram leaves the machine. A receiver waits for the first datagram, then takes the others
 * until its receive timeout expires. Main prints what each received.
 */
public final class Multicast {
    private static final int DATAGRAMS = 5;

    public static void main(String[] args) throws Exception {
        NetworkInterface lo = NetworkInterface.getByName("lo");
        InetAddress group = InetAddress.getByName("239.255.42.99");
        MulticastSocket first = new MulticastSocket(new InetSocketAddress(group, 0));
        MulticastSocket second = new MulticastSocket(new InetSocketAddress(group, first.getLocalPort()));
        InetSocketAddress to = new InetSocketAddress(group, first.getLocalPort());
        List<StringBuilder> received = new ArrayList<>();
        List<Thread> receivers = new ArrayList<>();
        for (MulticastSocket socket : List.of(first, second)) {
            socket.joinGroup(to, lo);
            StringBuilder got = new StringBuilder();
            received.add(got);
            receivers.add(new Thread(() -> receive(socket, got)));
        }
        receivers.forEach(Thread::start);

        try (MulticastSocket sender = new MulticastSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            sender.setNetworkInterface(lo);
            sender.setTimeToLive(0);
            sender.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            System.out.println("sending on " + sender.getNetworkInterface().getName() + ", ttl " + sender.getTimeToLive()
                    + ", loop " + sender.getOption(StandardSocketOptions.IP_MULTICAST_LOOP));
            for (int i = 0; i < DATAGRAMS; i++) {
                byte[] payload = ("datagram " + i).getBytes(StandardCharsets.UTF_8);
                sender.send(new DatagramPacket(payload, payload.length, to));
            }
        }
        for (int i = 0; i < receivers.size(); i++) {
            receivers.get(i).join();
            System.out.println("receiver " + (i + 1) + ":" + received.get(i));
        }
    }

    /** Takes datagrams until none came within the timeout, then leaves the group. */
    private static void receive(MulticastSocket socket, StringBuilder got) {
        try (socket) {
            byte[] buffer = new byte[64];
            while (true) {
                DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                try {
                    socket.receive(packet);
                } catch (SocketTimeoutException e) {
                    got.append(" [timed out after ").append(socket.getSoTimeout()).append(" ms]");
                    break;
                }
                got.append(" [").append(new String(packet.getData(), 0, packet.getLength(), StandardCharsets.UTF_8))
                        .append(" from loopback ").append(packet.getAddress().isLoopbackAddress()).append(']');
                socket.setSoTimeout(300);
            }
            socket.leaveGroup(new InetSocketAddress(socket.getLocalAddress(), socket.getLocalPort()),
                    NetworkInterface.getByName("lo"));
        } catch (Exception e) {
            got.append(" failed: ").append(e);
        }
    }
}
