package dev.reprise.agent.ops;

import java.util.List;

import dev.reprise.agent.ops.classes.BootPackageNames;
import dev.reprise.agent.ops.classes.ClassLoadingOps;
import dev.reprise.agent.ops.classes.ClassPathOps;
import dev.reprise.agent.ops.classes.ClassValueOrder;
import dev.reprise.agent.ops.classes.CleanupOps;
import dev.reprise.agent.ops.classes.CollectionRequests;
import dev.reprise.agent.ops.classes.HiddenClassOps;
import dev.reprise.agent.ops.classes.ImmutableOrder;
import dev.reprise.agent.ops.classes.InstrumentationOps;
import dev.reprise.agent.ops.classes.ModuleProviderOrder;
import dev.reprise.agent.ops.classes.NativeCalls;
import dev.reprise.agent.ops.classes.NativeLibraryOps;
import dev.reprise.agent.ops.classes.ReferenceOps;
import dev.reprise.agent.ops.classes.ReflectedCalls;
import dev.reprise.agent.ops.classes.ReflectionOrder;
import dev.reprise.agent.ops.classes.RetransformOrder;
import dev.reprise.agent.ops.environment.CollectorOps;
import dev.reprise.agent.ops.environment.EnvOps;
import dev.reprise.agent.ops.environment.HashOps;
import dev.reprise.agent.ops.environment.ManagementOps;
import dev.reprise.agent.ops.environment.OperatingSystemOps;
import dev.reprise.agent.ops.environment.ProcessInfoOps;
import dev.reprise.agent.ops.environment.RandomOps;
import dev.reprise.agent.ops.environment.ReflectedHashes;
import dev.reprise.agent.ops.environment.StartupState;
import dev.reprise.agent.ops.environment.SystemZone;
import dev.reprise.agent.ops.environment.TimeOps;
import dev.reprise.agent.ops.files.ArchiveCopies;
import dev.reprise.agent.ops.files.ArchiveOps;
import dev.reprise.agent.ops.files.ChannelParentClose;
import dev.reprise.agent.ops.files.FileChangeOps;
import dev.reprise.agent.ops.files.FileChannelOps;
import dev.reprise.agent.ops.files.FileDescriptorOps;
import dev.reprise.agent.ops.files.FileMetadataOps;
import dev.reprise.agent.ops.files.FileStreamOps;
import dev.reprise.agent.ops.files.NioDirectoryOps;
import dev.reprise.agent.ops.files.NioFileSystemOps;
import dev.reprise.agent.ops.files.PreferencesFiles;
import dev.reprise.agent.ops.files.WatchServiceOps;
import dev.reprise.agent.ops.files.NioPathOps;
import dev.reprise.agent.ops.files.RandomAccessFileOps;
import dev.reprise.agent.ops.net.KernelTurns;
import dev.reprise.agent.ops.net.NameLookups;
import dev.reprise.agent.ops.net.NetworkInterfaces;
import dev.reprise.agent.ops.net.OutsideWorldOps;
import dev.reprise.agent.ops.net.Reachability;
import dev.reprise.agent.ops.net.SocketIo;
import dev.reprise.agent.ops.net.SocketOps;
import dev.reprise.agent.ops.net.SocketPolls;
import dev.reprise.agent.ops.processes.AttachCalls;
import dev.reprise.agent.ops.processes.PerfDataAttach;
import dev.reprise.agent.ops.processes.ProcessOps;
import dev.reprise.agent.ops.threads.ManagedBlocks;
import dev.reprise.agent.ops.threads.MonitorOps;
import dev.reprise.agent.ops.threads.ParkOps;
import dev.reprise.agent.ops.threads.ThreadListings;
import dev.reprise.agent.ops.threads.ThreadOps;
import dev.reprise.agent.runtime.contexts.Cleanups;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.identity.IdentityHashes;

/**
 * The hook classes, each in the subpackage of its domain: every intercepted operation is declared
 * in one of these.
 */
public final class Families {
    public static final List<Class<?>> ALL = List.of(
            TimeOps.class,
            RandomOps.class,
            HashOps.class,
            ReflectedHashes.class,
            HiddenClassOps.class,
            ReflectedCalls.class,
            ReferenceOps.class,
            CleanupOps.class, CollectionRequests.class,
            ReflectionOrder.class, ImmutableOrder.class, ModuleProviderOrder.class, RetransformOrder.class,
            ClassValueOrder.class,
            EnvOps.class,
            ManagementOps.class,
            OperatingSystemOps.class,
            ProcessInfoOps.class,
            SystemZone.class,
            CollectorOps.class,
            ThreadOps.class,
            ThreadListings.class,
            MonitorOps.class,
            ParkOps.class,
            ManagedBlocks.class,
            ClassLoadingOps.class,
            ClassPathOps.class,
            ArchiveOps.class,
            FileStreamOps.class,
            RandomAccessFileOps.class,
            FileDescriptorOps.class,
            FileMetadataOps.class,
            FileChangeOps.class,
            NioFileSystemOps.class,
            NioPathOps.class,
            NioDirectoryOps.class,
            WatchServiceOps.class,
            PreferencesFiles.class,
            FileChannelOps.class,
            ChannelParentClose.class,
            NativeLibraryOps.class,
            NativeCalls.class,
            BootPackageNames.class,
            SocketOps.class,
            SocketIo.class,
            SocketPolls.class,
            NameLookups.class,
            Reachability.class,
            NetworkInterfaces.class,
            OutsideWorldOps.class,
            ProcessOps.class,
            AttachCalls.class,
            PerfDataAttach.class,
            InstrumentationOps.class);

    private Families() {
    }

    /**
     * Runs before instrumentation: initializes every hook class (their method handles and
     * operation ids) and the state hooks need, none of which may itself be intercepted.
     */
    public static void prepare() throws ClassNotFoundException {
        IdentityHashes.prime();
        for (Class<?> c : ALL) {
            Class.forName(c.getName(), true, null);
        }
        Class.forName(StartupState.class.getName(), true, null);
        Class.forName(KernelTurns.class.getName(), true, null); // its operation is named in every recording
        Class.forName(ArchiveCopies.class.getName(), true, null); // its start time is the agent's
        Class.forName(Cleanups.class.getName(), true, null); // its operations are named in every recording
    }

    /** The main thread's first events: what the JVM fixed before the program started. */
    public static void startSession(Session session) throws Throwable {
        RecordingCopies.configure(session.config().dir());
        StartupState.capture();
    }
}
