package io.kgrag.jobs;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.EmbeddingException;
import io.kgrag.jobs.cli.DemoCommand;
import io.kgrag.jobs.cli.EvalCommand;
import io.kgrag.jobs.cli.ExportEvidenceCommand;
import io.kgrag.jobs.cli.IndexCommand;
import io.kgrag.jobs.cli.QaCommand;
import io.kgrag.jobs.cli.VerifyIndexCommand;
import java.io.PrintWriter;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The entry point of every kgrag job ({@code spark-submit --class io.kgrag.jobs.KgragMain}).
 *
 * <p>Exit codes: 0 success; 2 bad options or unusable input (one line on stderr, nothing written);
 * 1 any other failure (with its stack trace).
 */
@Command(
    name = "kgrag",
    mixinStandardHelpOptions = true,
    versionProvider = KgragMain.Version.class,
    description = "Knowledge-graph retrieval-augmented generation at batch scale on Apache Spark.",
    subcommands = {
      IndexCommand.class,
      io.kgrag.jobs.cli.ReindexCommand.class,
      VerifyIndexCommand.class,
      QaCommand.class,
      io.kgrag.jobs.cli.AskSqlCommand.class,
      io.kgrag.jobs.cli.SqlCommand.class,
      EvalCommand.class,
      ExportEvidenceCommand.class,
      io.kgrag.jobs.cli.JoinBaselineCommand.class,
      io.kgrag.jobs.cli.ExemplarsCommand.class,
      DemoCommand.class,
      io.kgrag.jobs.cli.SynthCommand.class,
      CommandLine.HelpCommand.class
    })
public final class KgragMain implements Runnable {
  @Override
  public void run() {
    throw new CommandLine.ParameterException(new CommandLine(this), "missing command (try: kgrag --help)");
  }

  public static void main(String[] args) {
    int code = execute(args);
    SparkSession.getActiveSession().foreach(s -> {
      s.stop();
      return null;
    });
    System.exit(code);
  }

  /** Runs one command and returns its exit code without exiting (tests call this). */
  public static int execute(String... args) {
    return execute(null, null, args);
  }

  /** As {@link #execute(String...)}, printing usage and errors to the given writers (null: the console). */
  public static int execute(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cli = new CommandLine(new KgragMain());
    if (out != null) {
      cli.setOut(out);
    }
    if (err != null) {
      cli.setErr(err);
    }
    cli.setParameterExceptionHandler(
        (ex, args2) -> {
          // one line, as for any other bad option: picocli's default prints the whole usage after it
          CommandLine cmd = ex.getCommandLine();
          String name = cmd.getCommandName().equals("kgrag") ? "kgrag" : "kgrag " + cmd.getCommandName();
          String msg = String.valueOf(ex.getMessage()).replaceAll("\\s*\\R\\s*", " ").strip();
          cmd.getErr().println(name + ": error: " + msg + " (see " + name + " --help)");
          cmd.getErr().flush();
          return 2;
        });
    cli.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          PrintWriter w = cmd.getErr();
          Throwable cause = userError(ex);
          if (cause != null) {
            w.println("kgrag " + cmd.getCommandName() + ": error: " + cause.getMessage());
            w.flush();
            return 2;
          }
          w.println("kgrag " + cmd.getCommandName() + ": failed: " + ex);
          ex.printStackTrace(w);
          w.flush();
          return 1;
        });
    return cli.execute(args);
  }

  /** The user-facing error behind {@code t}, if that is what it is. */
  private static Throwable userError(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof UserInputException || c instanceof EmbeddingException) {
        return c;
      }
    }
    return null;
  }

  /** Version from the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = KgragMain.class.getPackage().getImplementationVersion();
      return new String[] {"kgrag " + (v == null ? "(development build)" : v) + ", Spark " + org.apache.spark.package$.MODULE$.SPARK_VERSION()};
    }
  }
}
