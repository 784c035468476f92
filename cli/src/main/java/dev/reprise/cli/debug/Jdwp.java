package dev.reprise.cli.debug;

/** The JDWP command sets, commands and constants the proxy uses, named as the specification names them. */
final class Jdwp {
    static final int VIRTUAL_MACHINE = 1;
    static final int CLASSES_BY_SIGNATURE = 2;
    static final int ALL_CLASSES = 3;
    static final int ALL_THREADS = 4;
    static final int DISPOSE = 6;
    static final int DISPOSE_OBJECTS = 14;
    static final int ID_SIZES = 7;
    static final int RESUME = 9;

    static final int REFERENCE_TYPE = 2;
    static final int SIGNATURE = 1;
    static final int FIELDS = 4;
    static final int METHODS = 5;
    static final int SIGNATURE_WITH_GENERIC = 13;

    static final int CLASS_TYPE = 3;
    static final int SET_VALUES = 2;
    static final int INVOKE_METHOD = 3;
    static final int NEW_INSTANCE = 4;

    static final int INTERFACE_TYPE = 5;
    static final int INTERFACE_INVOKE_METHOD = 1;

    static final int OBJECT_REFERENCE = 9;
    static final int OBJECT_TYPE = 1;
    static final int OBJECT_INVOKE_METHOD = 6;

    static final int THREAD_REFERENCE = 11;
    static final int NAME = 1;
    static final int THREAD_RESUME = 3;
    static final int STATUS = 4;

    static final int EVENT_REQUEST = 15;
    static final int SET = 1;
    static final int CLEAR = 2;
    static final int CLEAR_ALL_BREAKPOINTS = 3;

    static final int EVENT = 64;
    static final int COMPOSITE = 100;

    static final int SINGLE_STEP = 1;
    static final int BREAKPOINT = 2;
    static final int EXCEPTION = 4;
    static final int THREAD_START = 6;
    static final int CLASS_PREPARE = 8;
    static final int CLASS_UNLOAD = 9;
    static final int VM_DEATH = 99;

    static final int MOD_CLASS_MATCH = 5;
    static final int MOD_CLASS_EXCLUDE = 6;
    static final int MOD_LOCATION_ONLY = 7;
    static final int MOD_EXCEPTION_ONLY = 8;

    static final int SUSPEND_NONE = 0;
    static final int SUSPEND_EVENT_THREAD = 1;
    static final int SUSPEND_ALL = 2;
    static final int TYPE_TAG_CLASS = 1;
    static final int INVOKE_SINGLE_THREADED = 1;
    static final int SUSPEND_STATUS_SUSPENDED = 1;

    private Jdwp() {
    }
}
