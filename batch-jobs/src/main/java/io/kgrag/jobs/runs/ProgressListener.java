package io.kgrag.jobs.runs;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;
import scala.collection.JavaConverters;

/**
 * Passes Spark's job, stage and task events on to {@link StageProgress}, which counts them for the open stage's
 * progress. Registered with {@link SparkUsage} ({@link SparkUsage#register}).
 */
final class ProgressListener extends SparkListener {
  private final StageProgress progress;

  ProgressListener(StageProgress progress) {
    this.progress = progress;
  }

  @Override
  public void onJobStart(SparkListenerJobStart e) {
    Map<Integer, Integer> tasks = new LinkedHashMap<>();
    for (StageInfo s : JavaConverters.seqAsJavaList(e.stageInfos())) {
      tasks.put(s.stageId(), s.numTasks());
    }
    progress.jobStarted(e.jobId(), tasks);
  }

  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted e) {
    StageInfo s = e.stageInfo();
    progress.stageSubmitted(s.stageId(), s.attemptNumber(), s.numTasks());
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd e) {
    progress.taskEnded(e.stageId(), e.taskInfo() != null && e.taskInfo().successful());
  }

  @Override
  public void onJobEnd(SparkListenerJobEnd e) {
    progress.jobEnded(e.jobId());
  }
}
