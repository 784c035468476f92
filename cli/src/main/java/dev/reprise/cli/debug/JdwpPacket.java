package dev.reprise.cli.debug;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * One packet of the JDWP wire protocol: a command (its set and number) or a reply (its error
 * code), with its data left encoded. The proxy forwards most packets as read, so it decodes only
 * the data of the few commands it acts on ({@link JdwpData}).
 */
record JdwpPacket(int id, int flags, int commandSet, int command, int errorCode, byte[] data) {
    private static final int HEADER = 11;
    private static final int REPLY = 0x80;
    /** What either side sends first, and the other answers with the same bytes. */
    static final byte[] HANDSHAKE = "JDWP-Handshake".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    static JdwpPacket command(int id, int commandSet, int command, byte[] data) {
        return new JdwpPacket(id, 0, commandSet, command, 0, data);
    }

    /** The proxy's own reply to a command it answers instead of the JVM. */
    static JdwpPacket reply(int id, int errorCode, byte[] data) {
        return new JdwpPacket(id, REPLY, 0, 0, errorCode, data);
    }

    boolean isReply() {
        return (flags & REPLY) != 0;
    }

    /** Whether this is the command {@code set}/{@code cmd} ({@link Jdwp}'s constants). */
    boolean is(int set, int cmd) {
        return !isReply() && commandSet == set && command == cmd;
    }

    JdwpPacket withData(byte[] newData) {
        return new JdwpPacket(id, flags, commandSet, command, errorCode, newData);
    }

    static JdwpPacket read(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < HEADER) {
            throw new IOException("malformed JDWP packet (length " + length + ")");
        }
        int id = in.readInt();
        int flags = in.readUnsignedByte();
        int a = in.readUnsignedByte();
        int b = in.readUnsignedByte();
        byte[] data = in.readNBytes(length - HEADER);
        if (data.length != length - HEADER) {
            throw new EOFException();
        }
        return (flags & REPLY) != 0 ? new JdwpPacket(id, flags, 0, 0, (a << 8) | b, data)
                : new JdwpPacket(id, flags, a, b, 0, data);
    }

    /** Writes the packet whole; callers sharing a stream hold its lock. */
    void write(DataOutputStream out) throws IOException {
        out.writeInt(HEADER + data.length);
        out.writeInt(id);
        out.writeByte(flags);
        if (isReply()) {
            out.writeShort(errorCode);
        } else {
            out.writeByte(commandSet);
            out.writeByte(command);
        }
        out.write(data);
        out.flush();
    }
}
