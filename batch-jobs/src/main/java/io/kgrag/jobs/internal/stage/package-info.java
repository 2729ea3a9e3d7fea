/**
 * What an index stage is: its name, the tables it reads and writes, a full build and, for some, an incremental
 * update ({@link io.kgrag.jobs.internal.stage.Stage}); what it runs with ({@link
 * io.kgrag.jobs.internal.stage.StageSetup}, {@link io.kgrag.jobs.internal.stage.TriplesInput}, {@link
 * io.kgrag.jobs.internal.stage.DocumentsInput}); and the read versions each records in its runs row ({@link
 * io.kgrag.jobs.internal.stage.StageInputs}). The stages live in the subpackages; {@link
 * io.kgrag.jobs.internal.pipeline.Pipeline} orders them.
 */
package io.kgrag.jobs.internal.stage;
