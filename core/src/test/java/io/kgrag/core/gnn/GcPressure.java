package io.kgrag.core.gnn;

/**
 * Runs the garbage collector over and over in a daemon thread until closed, so that a test can check that a
 * result does not depend on when the collector runs (it frees the Java buffers under DJL's short-lived tensors).
 */
public final class GcPressure implements AutoCloseable {
  private final Thread thread;

  private GcPressure() {
    thread =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                System.gc();
                try {
                  Thread.sleep(1);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "gc-pressure");
    thread.setDaemon(true);
  }

  /** Starts collecting. */
  public static GcPressure start() {
    GcPressure p = new GcPressure();
    p.thread.start();
    return p;
  }

  @Override
  public void close() {
    thread.interrupt();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
