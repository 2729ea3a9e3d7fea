package io.kgrag.jobs;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs {@code kgrag …} in-process against the shared test session and keeps what it printed. */
public final class Cli {
  public final int code;
  public final String out;
  public final String err;

  private Cli(int code, String out, String err) {
    this.code = code;
    this.out = out;
    this.err = err;
  }

  public static Cli run(String... args) {
    SparkTestSession.get();
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int code = KgragMain.execute(new PrintWriter(o, true), new PrintWriter(e, true), args);
    return new Cli(code, o.toString(), e.toString());
  }

  @Override
  public String toString() {
    return "exit " + code + "\nstdout: " + out + "\nstderr: " + err;
  }
}
