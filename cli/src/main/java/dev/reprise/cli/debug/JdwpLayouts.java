package dev.reprise.cli.debug;

import java.util.HashMap;
import java.util.Map;

/**
 * Where the identifiers are in every JDWP command and reply, from the JDWP specification: what
 * the proxy must translate once the debugger's IDs and the replay JVM's differ (after going back).
 * A layout is a string, one letter per item, read in order:
 * <pre>
 *   b byte or boolean   i int   l long   s string
 *   o objectID          T threadID   t referenceTypeID   m methodID   f fieldID   F frameID
 *   r an event request's id (an int the proxy maps too)
 *   L location (type tag, referenceTypeID, methodID, long index)
 *   v tagged value      O tagged objectID
 *   *X, *(XY)  an int count, then that many X (or XY)
 *   U untagged value of the field just before (ClassType and ObjectReference SetValues)
 *   W untagged values of the array in the command (ArrayReference SetValues)
 *   A arrayregion (a tag, an int count, values tagged unless primitive)
 *   M event request modifiers (a count, then per modifier its kind and {@link #modifier} layout)
 *   E composite events (a count, then per event its kind, request id and {@link #event} layout)
 * </pre>
 * A command missing from the table carries no identifier either way, or is unknown to this
 * version of the specification: it is forwarded unchanged.
 */
final class JdwpLayouts {
    /** A command's data and its reply's. */
    record Layout(String command, String reply) {
    }

    private static final Map<Integer, Layout> COMMANDS = new HashMap<>();
    private static final Map<Integer, String> EVENTS = new HashMap<>();
    private static final Map<Integer, String> MODIFIERS = new HashMap<>();

    private static void command(int set, int cmd, String command, String reply) {
        COMMANDS.put(set << 8 | cmd, new Layout(command, reply));
    }

    static {
        // VirtualMachine (1); Version, Dispose, IDSizes, Suspend, Resume, Exit, Capabilities, ClassPaths,
        // HoldEvents, ReleaseEvents, CapabilitiesNew, SetDefaultStratum carry no IDs.
        command(1, 2, "s", "*(bti)"); // ClassesBySignature
        command(1, 3, "", "*(btsi)"); // AllClasses
        command(1, 4, "", "*T"); // AllThreads
        command(1, 5, "", "*o"); // TopLevelThreadGroups
        command(1, 11, "s", "o"); // CreateString
        command(1, 14, "*(oi)", ""); // DisposeObjects
        command(1, 18, "*(t*b)", ""); // RedefineClasses
        command(1, 20, "", "*(btssi)"); // AllClassesWithGeneric
        command(1, 21, "*t", "*l"); // InstanceCounts
        command(1, 22, "", "*o"); // AllModules
        // ReferenceType (2)
        command(2, 1, "t", "s"); // Signature
        command(2, 2, "t", "o"); // ClassLoader
        command(2, 3, "t", "i"); // Modifiers
        command(2, 4, "t", "*(fssi)"); // Fields
        command(2, 5, "t", "*(mssi)"); // Methods
        command(2, 6, "t*f", "*v"); // GetValues
        command(2, 7, "t", "s"); // SourceFile
        command(2, 8, "t", "*(bt)"); // NestedTypes
        command(2, 9, "t", "i"); // Status
        command(2, 10, "t", "*t"); // Interfaces
        command(2, 11, "t", "o"); // ClassObject
        command(2, 12, "t", "s"); // SourceDebugExtension
        command(2, 13, "t", "ss"); // SignatureWithGeneric
        command(2, 14, "t", "*(fsssi)"); // FieldsWithGeneric
        command(2, 15, "t", "*(msssi)"); // MethodsWithGeneric
        command(2, 16, "ti", "*O"); // Instances
        command(2, 17, "t", "ii"); // ClassFileVersion
        command(2, 18, "t", "i*b"); // ConstantPool
        command(2, 19, "t", "o"); // Module
        // ClassType (3)
        command(3, 1, "t", "t"); // Superclass
        command(3, 2, "t*(fU)", ""); // SetValues
        command(3, 3, "tTm*vi", "vO"); // InvokeMethod
        command(3, 4, "tTm*vi", "OO"); // NewInstance
        // ArrayType (4), InterfaceType (5)
        command(4, 1, "ti", "O"); // NewInstance
        command(5, 1, "tTm*vi", "vO"); // InvokeMethod
        // Method (6)
        command(6, 1, "tm", "ll*(li)"); // LineTable
        command(6, 2, "tm", "i*(lssii)"); // VariableTable
        command(6, 3, "tm", "*b"); // Bytecodes
        command(6, 4, "tm", "b"); // IsObsolete
        command(6, 5, "tm", "i*(lsssii)"); // VariableTableWithGeneric
        // ObjectReference (9)
        command(9, 1, "o", "bt"); // ReferenceType
        command(9, 2, "o*f", "*v"); // GetValues
        command(9, 3, "o*(fU)", ""); // SetValues
        command(9, 5, "o", "Ti*T"); // MonitorInfo
        command(9, 6, "oTtm*vi", "vO"); // InvokeMethod
        command(9, 7, "o", ""); // DisableCollection
        command(9, 8, "o", ""); // EnableCollection
        command(9, 9, "o", "b"); // IsCollected
        command(9, 10, "oi", "*O"); // ReferringObjects
        // StringReference (10)
        command(10, 1, "o", "s"); // Value
        // ThreadReference (11)
        command(11, 1, "T", "s"); // Name
        command(11, 2, "T", ""); // Suspend
        command(11, 3, "T", ""); // Resume
        command(11, 4, "T", "ii"); // Status
        command(11, 5, "T", "o"); // ThreadGroup
        command(11, 6, "Tii", "*(FL)"); // Frames
        command(11, 7, "T", "i"); // FrameCount
        command(11, 8, "T", "*O"); // OwnedMonitors
        command(11, 9, "T", "O"); // CurrentContendedMonitor
        command(11, 10, "To", ""); // Stop
        command(11, 11, "T", ""); // Interrupt
        command(11, 12, "T", "i"); // SuspendCount
        command(11, 13, "T", "*(Oi)"); // OwnedMonitorsStackDepthInfo
        command(11, 14, "Tv", ""); // ForceEarlyReturn
        command(11, 15, "T", "b"); // IsVirtual
        // ThreadGroupReference (12)
        command(12, 1, "o", "s"); // Name
        command(12, 2, "o", "o"); // Parent
        command(12, 3, "o", "*T*o"); // Children
        // ArrayReference (13)
        command(13, 1, "o", "i"); // Length
        command(13, 2, "oii", "A"); // GetValues
        command(13, 3, "oiW", ""); // SetValues
        // ClassLoaderReference (14)
        command(14, 1, "o", "*(bt)"); // VisibleClasses
        // EventRequest (15)
        command(15, 1, "bbM", "r"); // Set
        command(15, 2, "br", ""); // Clear
        // StackFrame (16)
        command(16, 1, "TF*(ib)", "*v"); // GetValues
        command(16, 2, "TF*(iv)", ""); // SetValues
        command(16, 3, "TF", "O"); // ThisObject
        command(16, 4, "TF", ""); // PopFrames
        // ClassObjectReference (17), ModuleReference (18)
        command(17, 1, "o", "bt"); // ReflectedType
        command(18, 1, "o", "s"); // Name
        command(18, 2, "o", "o"); // ClassLoader
        // Event (64): the JVM's command
        command(64, 100, "bE", ""); // Composite

        EVENTS.put(1, "TL"); // SingleStep
        EVENTS.put(2, "TL"); // Breakpoint
        EVENTS.put(4, "TLOL"); // Exception: thread, location, exception, catch location
        EVENTS.put(6, "T"); // ThreadStart
        EVENTS.put(7, "T"); // ThreadDeath
        EVENTS.put(8, "Tbtsi"); // ClassPrepare
        EVENTS.put(9, "s"); // ClassUnload
        EVENTS.put(20, "TLbtfO"); // FieldAccess
        EVENTS.put(21, "TLbtfOv"); // FieldModification
        EVENTS.put(40, "TL"); // MethodEntry
        EVENTS.put(41, "TL"); // MethodExit
        EVENTS.put(42, "TLv"); // MethodExitWithReturnValue
        EVENTS.put(43, "TOL"); // MonitorContendedEnter
        EVENTS.put(44, "TOL"); // MonitorContendedEntered
        EVENTS.put(45, "TOLl"); // MonitorWait
        EVENTS.put(46, "TOLb"); // MonitorWaited
        EVENTS.put(90, "T"); // VMStart
        EVENTS.put(99, ""); // VMDeath

        MODIFIERS.put(1, "i"); // Count
        MODIFIERS.put(2, "i"); // Conditional
        MODIFIERS.put(3, "T"); // ThreadOnly
        MODIFIERS.put(4, "t"); // ClassOnly
        MODIFIERS.put(5, "s"); // ClassMatch
        MODIFIERS.put(6, "s"); // ClassExclude
        MODIFIERS.put(7, "L"); // LocationOnly
        MODIFIERS.put(8, "tbb"); // ExceptionOnly
        MODIFIERS.put(9, "tf"); // FieldOnly
        MODIFIERS.put(10, "Tii"); // Step
        MODIFIERS.put(11, "o"); // InstanceOnly
        MODIFIERS.put(12, "s"); // SourceNameMatch
        MODIFIERS.put(13, ""); // PlatformThreadsOnly
    }

    private JdwpLayouts() {
    }

    /** The command's layouts, or null if neither its data nor its reply hold an ID. */
    static Layout of(int set, int cmd) {
        return COMMANDS.get(set << 8 | cmd);
    }

    /** What follows an event's kind and request id; null for a kind this table does not know. */
    static String event(int kind) {
        return EVENTS.get(kind);
    }

    /** What follows a modifier's kind in EventRequest.Set; null for a kind this table does not know. */
    static String modifier(int kind) {
        return MODIFIERS.get(kind);
    }
}
