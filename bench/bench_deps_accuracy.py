"""Accuracy of the dependency delta on real dependency-update commits of public repositories.

Each case in bench/deps_bumps.tsv is (repository, commit, package, version) taken from a bot's
single-package update commit ("Bump X from A to B", "Update dependency X to vY"). The delta between
the commit's parent and the commit (`--tree`, through git objects) must name X with version Y.
Only that list is kept in bench/; the repositories are read from local mirrors (the search tool's
`fetch github:owner/name` writes them to /work/.mirror/owner+name/repo).

    python bench/bench_deps_accuracy.py [--mirrors DIR] [--mode tree|patch] [--data SET|TSV [--unseen]]

`--data` names one of the collections kept here — `main` (bench/deps_bumps.tsv, 41 repositories), `other`
(deps_bumps_other.tsv, 70 other repositories), `third` (deps_bumps_third.tsv, 20 more, collected and first run
blind), `formats` (deps_bumps_formats.tsv, commits of formats read since), `fifth` (deps_bumps_fifth.tsv, 15 more
repositories, collected, committed and first run blind in round 4), `sixth` (deps_bumps_sixth.tsv, 20 more
repositories chosen for Gradle catalogs, Maven modules, NuGet, Composer, Cargo, Go and Terraform modules, committed
before its first, blind run in round 5), `seventh` (deps_bumps_seventh.tsv, 25 more repositories chosen for Gradle
catalogs, mix, Swift, CocoaPods, Bazel, pnpm/yarn workspaces, uv, Go modules, Helm and images, committed before its
first, blind run in round 6), `eighth` (deps_bumps_eighth.tsv, 26 more repositories chosen for breadth:
npm/yarn/pnpm/bun workspaces, uv/poetry/Pipfile/requirements, Go, Cargo workspaces, Bundler, Composer, Maven,
Gradle, NuGet, actions, images in Dockerfiles, Compose and Kubernetes manifests, Helm, Terraform,
`.tool-versions`, committed before its first, blind run in round 7), `ninth` (deps_bumps_ninth.tsv, 26 more
repositories chosen for breadth: Gradle catalogs and wrappers, Maven, NuGet central versions, Bundler, Composer, pub,
mix, Swift, Cargo, pnpm/yarn workspaces, poetry/uv, Go, Helm charts and values, Terraform, kustomize, images,
actions, committed before its first, blind run in round 8), `tenth` (deps_bumps_tenth.tsv, 26 more repositories
chosen for pnpm/yarn/bun monorepos, uv/poetry/pip-tools/Pipfile, Cargo workspaces, Go multi-module, Gradle catalogs,
Maven modules, NuGet central versions, Composer, Bundler, mix, Terraform, Helm, images and actions, committed before
its first, blind run in round 9), `eleventh` (deps_bumps_eleventh.tsv, 28 more repositories chosen for pnpm/yarn
berry monorepos, Go multi-module, sha-pinned actions, Cargo, Gradle catalogs, Maven, NuGet, Composer, Bundler, mix,
requirements/poetry/uv, Terraform, images and Compose, committed before its first, blind run in round 10), `twelfth`
(deps_bumps_twelfth.tsv, 28 more repositories chosen for yarn/pnpm/npm and bun beside Bundler, pip-tools/uv,
Go multi-module with sha-pinned actions and images, Cargo workspaces, Bundler, Maven, Gradle catalogs, NuGet,
Compose, devcontainer features and Terraform providers and modules, committed before its first, blind run in round
11), `thirteenth` (deps_bumps_thirteenth.tsv, 28 more repositories chosen for pnpm/npm, requirements/pyproject/uv,
Go, Cargo workspaces, Bundler, Composer, Maven, Gradle catalogs and wrappers, NuGet central versions, Helm,
Terraform, Compose and Dockerfiles, devcontainer features and sha-pinned actions, committed before its first, blind
run in round 13), `fourteenth` (deps_bumps_fourteenth.tsv, 32 more repositories chosen for Maven properties and BOMs,
Gradle catalogs, NuGet central versions, Swift packages, pub, mix, Composer, Bundler, uv/poetry, pre-commit hooks,
Go workspaces, Cargo, Helm chart dependencies, Terraform, images and pnpm/yarn, committed before its first, blind
run in round 14), `fifteenth` (deps_bumps_fifteenth.tsv, 36 more repositories chosen for Gradle catalogs, Maven
properties, NuGet, Bundler, Composer, Helm, Terraform, kustomize, images, actions, Go, Cargo, pnpm/yarn and
uv/poetry/PDM, committed before its first, blind run in round 15), `sixteenth` (deps_bumps_sixteenth.tsv, 36 more
repositories chosen for breadth: pnpm/yarn/npm workspaces, uv/poetry/pip-tools, pre-commit hooks, Go multi-module,
Bazel modules, Cargo workspaces, Gradle catalogs and wrappers, Maven, NuGet, Composer, Bundler, mix, pub, Swift,
Terraform, Helm charts and values, images in Dockerfiles and Kubernetes values, devcontainers and Renovate's regex
managers, committed before its first, blind run in round 16), `seventeenth` (deps_bumps_seventeenth.tsv, 33 more
repositories chosen for breadth: pnpm/yarn/npm/bun workspaces, uv/poetry/requirements, pre-commit hooks, Go
multi-module, Cargo, Gradle catalogs and wrappers, Maven, NuGet, Composer, Bundler, mix, pub, Swift, Terraform, Helm
charts and values, images in Dockerfiles and Kubernetes manifests, kustomize, mise and Renovate's regex managers,
committed before its first, blind run in round 17), `eighteenth` (deps_bumps_eighteenth.tsv, 34 more repositories
chosen for breadth of ecosystems and bots: Dependabot, Renovate (a self-hosted app among them), pyup and
pre-commit.ci over yarn/npm monorepos, uv/requirements, pre-commit hooks, Go, Cargo, Maven, NuGet, Composer,
Bundler, mix, pub, Terraform, images in Dockerfiles and Compose, committed before its first, blind run in round
18), `nineteenth` (deps_bumps_nineteenth.tsv, 37 more repositories chosen for breadth of ecosystems and bots:
Dependabot, Renovate, scala-steward, pyup and pre-commit.ci over Go multi-module, Maven, NuGet central versions,
pub, Composer, mix, Gradle catalogs and wrappers, mise, sha-pinned actions, images, Helm, Terraform, pnpm/yarn
workspaces, uv/requirements, Cargo workspaces, Bundler and pre-commit hooks, committed before its first, blind run
in round 19), `sbt` (deps_bumps_sbt.tsv, scala-steward's updates of sttp, cats-effect, http4s and fs2: build.sbt,
project/*.sbt, project/*.scala, project/build.properties, committed before its first, blind run in round 20),
`twentieth` (deps_bumps_twentieth.tsv, 34 more repositories chosen for breadth of ecosystems and bots: Dependabot,
Renovate, scala-steward and pre-commit.ci over Go multi-module, Maven, NuGet central versions, pub, Composer, mix,
Gradle catalogs and wrappers, sbt, mise and .tool-versions, sha-pinned actions, images, Terraform, pnpm/yarn/npm
workspaces, poetry, Cargo and Bundler, committed before its first, blind run in round 20), `twentyfirst`
(deps_bumps_twentyfirst.tsv, 32 more repositories chosen for breadth of ecosystems and bots: Dependabot, Renovate,
scala-steward, pre-commit.ci and pyup over Go multi-module, Maven plugins and properties, NuGet central versions,
pub, Composer, mix, sbt, sha-pinned actions, images in Dockerfiles, Compose and Kubernetes, Helm, pnpm/yarn,
Pipenv, Bundler and pre-commit hooks, committed before its first, blind run in round 21), `twentysecond`
(deps_bumps_twentysecond.tsv, 40 more repositories chosen for breadth of ecosystems and bots: Dependabot, Renovate,
scala-steward and pre-commit.ci over Go multi-module, Maven plugins and modules, NuGet central versions, pub,
Composer, mix, Gradle catalogs and wrappers, sbt, sha-pinned actions, images in Dockerfiles, Compose and kustomize,
Terraform modules and providers, pnpm, uv/poetry, pre-commit hooks, Cargo and Bundler, committed before its first,
blind run in round 22), `twentythird` (deps_bumps_twentythird.tsv, 36 more repositories chosen for breadth of
ecosystems and bots: Dependabot, Renovate, scala-steward and pre-commit.ci over Go multi-module, Maven plugins, NuGet,
mix, Composer, Gradle, sbt, sha-pinned actions, images in Dockerfiles, Compose, kustomize and Helm values, Terraform
modules and providers, pnpm/yarn/npm, uv/poetry/pip, pre-commit hooks, Cargo and Bundler, committed before its
first, blind run in round 23), `twentyfourth` (deps_bumps_twentyfourth.tsv, 36 more repositories chosen for breadth
of ecosystems and bots: Dependabot, Renovate and scala-steward over Go multi-module, Maven BOMs and properties, NuGet,
pub, Composer, sbt, sha-pinned actions, images in Dockerfiles, Compose and Helm values, Terraform providers,
pnpm/yarn/npm, uv/pip/Pipenv, Cargo and Bundler, committed before its first, blind run in round 24), `twentyfifth`
(deps_bumps_twentyfifth.tsv, 37 more repositories chosen for breadth of ecosystems and bots: Dependabot, Renovate,
scala-steward and pre-commit.ci over Go multi-module, Maven plugins, NuGet, mix, Composer, Gradle catalogs, sbt, mise,
sha-pinned actions, images in Dockerfiles, Terraform modules, pnpm/yarn/npm, uv/poetry/pip, pre-commit hooks, Cargo
and Bundler, committed before its first, blind run in round 25), `twentysixth` (deps_bumps_twentysixth.tsv, 39 more
repositories weighted to the JVM, .NET, Go, PHP, Ruby, Elixir, Dart and Scala: Dependabot, Renovate and scala-steward
over Go multi-module, Maven plugins, Gradle catalogs and wrappers, sbt, NuGet, Composer, Bundler, mix, pub, Terraform
providers, sha-pinned actions, images in Dockerfiles, yarn/npm, committed before its first, blind run in round 26),
`twentyseventh` (deps_bumps_twentyseventh.tsv, 35 more repositories weighted to JS/TS, Python, Rust, GitHub Actions,
images and Terraform: Dependabot, Renovate and pre-commit.ci over pnpm/yarn/npm workspaces, uv/poetry/pip,
pre-commit hooks, Cargo, Go multi-module, Helm values, images in Dockerfiles and Compose, Terraform providers, Bundler,
NuGet, Composer, mix and pub, committed before its first, blind run in round 27), `twentyeighth`
(deps_bumps_twentyeighth.tsv, 43 more repositories weighted to the JVM, .NET, Go, PHP, Ruby, Swift, Dart, Elixir and
Scala: Dependabot, Renovate and scala-steward over Maven BOMs and multi-module builds, Gradle catalogs and wrappers,
sbt, NuGet, Go, Composer, Bundler (Swift and Android apps' fastlane bundles among them), mix, images in Dockerfiles and
Compose, sha-pinned actions, npm/yarn/pnpm, committed before its first, blind run in round 28), `twentyninth`
(deps_bumps_twentyninth.tsv, 34 more repositories weighted to JS/TS, Python, Rust, GitHub Actions, images and
Terraform: Dependabot, Renovate and pre-commit.ci over pnpm/yarn/bun/npm workspaces, uv/poetry/pip, pip-tools,
pre-commit hooks, Cargo workspaces, Helm charts, kustomize images, images in Dockerfiles, Terraform modules and
providers, committed before its first, blind run in round 29), `thirtieth` (deps_bumps_thirtieth.tsv, 35 more
repositories weighted to Go, Maven, Gradle, NuGet, Composer, Bundler, pub, mix, Swift, Terraform, Helm, images, mise
and devcontainers: Dependabot, Renovate and self-hosted Renovate apps over Go multi-module, Maven plugins and
properties, Gradle catalogs and wrappers, NuGet central versions, Composer, Bundler, pub, mix, Swift packages,
Terraform providers and modules, kustomize, Compose and Dockerfile images, mise, devcontainer features and
pre-commit hooks, committed before its first, blind run in round 30), `thirtyfirst` (deps_bumps_thirtyfirst.tsv, 42 more
repositories weighted to npm/yarn/pnpm workspaces and catalogs, PyPI (pip-tools, uv, hashes), Cargo workspaces, GitHub
Actions' own repositories and pre-commit hooks: Dependabot, Renovate and pre-commit.ci, committed before its first,
blind run in round 31), `thirtysecond` (deps_bumps_thirtysecond.tsv, 31 more repositories weighted to NuGet central
versions, Composer, Bundler, Gradle catalogs and Kotlin scripts, Maven multi-module properties, Terraform, Helm,
images, sha-pinned actions and mix: Dependabot and Renovate, committed before its first, blind run in round 32) — or
reads another collection's file
(`bench_deps_collect.py --out FILE --per 40`, say); `--unseen` keeps only its commits that bench/deps_bumps.tsv
does not hold: a held-out check of the same kind.

`--data thirtythird` reads deps_bumps_thirtythird.tsv: 32 more repositories chosen for breadth as a held-out set
would be built — npm/yarn (berry)/pnpm monorepos and the actions' own repositories (Effect, Apollo Server,
WebdriverIO, Kysely, Radix, supabase-js, zigbee2mqtt, docker's and actions' JavaScript actions), Python with
uv/poetry/requirements and pre-commit.ci (typeshed, virtualenv, nox, redis-py, PyJWT, python-gitlab, the Kubernetes
client, watchfiles, pendulum), Go (Helm, connect-go, Ginkgo, kafka-go, buildx), Cargo workspaces (wgpu, cross,
tealdeer), Terraform and images: Dependabot, Renovate and pre-commit.ci, committed before its first, blind run in
round 33.

`--data thirtyfourth` reads deps_bumps_thirtyfourth.tsv: 37 more repositories chosen for breadth as a held-out set
would be built — npm/yarn/pnpm monorepos and JavaScript actions (Ariakit, Floating UI, FormKit, Radix Vue, MDX,
Valibot, AdonisJS, Feathers, setup-go, setup-uv, codecov-action, changed-files), Python with pip/poetry/uv and
pre-commit.ci (instructor, briefcase, Quart, Read the Docs, scientific-python/cookie), Go (nFPM, Alloy, Datadog's
Terraform provider), Cargo (jj, nextest, docs.rs, sentry-rust), Gradle and Maven (OpenTelemetry Java, Spring
Security, Hibernate Validator, sentry-java), NuGet (octokit.net, sentry-dotnet, Git Credential Manager), Composer
(solidtime, LinkAce, sentry-php), Bundler (ViewComponent, sentry-ruby) and the GitHub Actions runners' Terraform
module: Dependabot, Renovate and pre-commit.ci, committed before its first, blind run in round 34.
`--data thirtyfifth` reads deps_bumps_thirtyfifth.tsv: 29 more repositories weighted to the ecosystems and bots the
earlier sets hold least of — scala-steward's sbt builds (otel4s, Slick, Monocle, scalachess, lila-ws), mix (Ash's
Spark and JSON:API, the OpenTelemetry Erlang/Elixir contributions), pub (ubuntu-desktop-provision, dartdoc), Bazel
modules and `.bazelversion` (bazel-lib, toolchains_llvm, Gazelle), Gradle catalogs, wrappers and a self-hosted
Renovate (slack-gradle-plugin's OSS-Bot, Metro, SpotBugs, pgjdbc), Maven BOMs and properties (java-pubsub,
java-storage, Truth), Nix projects' Go and actions (sops-nix, treefmt, nix-direnv, cachix), protovalidate, sequin,
setup-beam: Dependabot, Renovate and scala-steward, committed before its first, blind run in round 35.
`--data thirtysixth` reads deps_bumps_thirtysixth.tsv: 37 more repositories weighted to Gradle plugins, catalogs
and wrappers (Anvil, Burst, Licensee, CatchUp, Redacted, Emoji, the dependency-analysis plugin), Maven BOMs and
properties (java-spanner, java-bigtable, the Cloud SQL and AlloyDB connectors, Jdbi, a Jenkins plugin), sbt and
scala-steward (doobie, Skunk, play-json, weaver, ElasticMQ, refined, mdoc, sbt-typelevel), pub (dart-lang/test), mix
(Igniter), Bazel modules (rules_py, rules_ts), Nix projects' Cargo and actions (Nickel, Lanzaboote, Crane, Attic,
magic-nix-cache), devcontainers/ci, sigstore-js, Allstar, wolfictl and vcpkg-tool: Dependabot, Renovate and
scala-steward, committed before its first, blind run in round 36.

`--data thirtyseventh` reads deps_bumps_thirtyseventh.tsv: 35 more repositories chosen for breadth as a held-out set
would be built, with people's own "bump X to Y" commits beside the bots' (70 of the 335 collected) — Erlang rebar3
projects (ejabberd, VerneMQ, elvis, emqtt, hackney, erlang_ls), Deno's lint and Docker images, changesets/
release-please monorepos (wagmi, TanStack Form, Orama, react-three-fiber, release-please, wrangler-action, Flarum),
uv/poetry/PEP 621 Python (LangGraph's workspace, FastMCP, python-semantic-release, the OpenAI Agents SDK, ruff's
pre-commit hook), Go (Supabase CLI, gosec, lefthook), Cargo (the Lambda Rust runtime, image, async-graphql,
minijinja), NuGet (MySqlConnector), Gradle (Timber, Accompanist), Maven (Spring Data JPA), Bundler
(jsbundling-rails) and a Renovate home-ops repository: committed before its first, blind run in round 37.

`--data thirtyeighth` reads deps_bumps_thirtyeighth.tsv: 25 more repositories (30 fetched) with people's own "bump X
to Y" commits read by the collector's `_person` (83 of the 241 collected) beside the bots' — Deno projects (Fedify's
deno.json and mise, Cliffy, deno_core's V8 crates), Bun (Eden, create-hono), changesets monorepos (GraphiQL,
XState, GraphQL Yoga, SolidStart), uv workspaces and pip (crewAI, llm, smolagents, the Mistral client), Go
(go-github), Cargo (rye), NuGet Central Package Management (Wolverine, Specification), Maven (google-java-format,
json-schema-validator), Gradle plugins and wrappers (gradle-versions-plugin), Composer (Larastan) and two GitOps
home labs' Terraform, Kustomize, Helmfile and pre-commit (ishioni/homelab-ops, angelnu/k8s-gitops): committed before
its first, blind run in round 38.
`--data thirtyninth` reads deps_bumps_thirtyninth.tsv: 43 more repositories, none in an earlier deps set but all
mirrored for the label sets (their files' classification was studied, not their dependency commits), chosen for
breadth as a held-out set would be built, people's own "bump X to Y" commits beside the bots' — Renovate home-ops and
Argo CD repositories (kustomize, mise, bun, Helm values, devcontainers), uv/Poetry Python (Prefect, Hatchet, Synapse,
nf-core/tools, dbt-core, cal-itp's data-infra, MNE's pre-commit hooks), Cargo and Rust toolchains (arrow-rs, Embassy,
SQLx, Cargo itself, a Stackable operator), NuGet central versions and global.json (osu!, ILSpy, eShopOnWeb, v2rayN),
Go (etcd, Dex, Tailscale, yq), Gradle and Maven (JabRef, Home Assistant's Android app, Javalin, Kyuubi, HiveMQ's
charts), changesets/pnpm monorepos (Payload, Hydrogen, Langfuse, Decap CMS, Netlify's Next.js runtime), Bundler
(chef-workstation, Lago), Composer (Leantime), pub (Flutter Gallery), Helm (teutonet), Docker and Compose
(nextcloud/docker, deploy-sourcegraph-docker) and Kong: committed before its first, blind run in round 39.

`--data fortieth` reads deps_bumps_fortieth.tsv: 44 more repositories, none in an earlier deps set, all mirrored
already (some for the label sets: their files' classification was studied, not their dependency commits), chosen for
breadth and for people's own "bump X to Y" commits (216 of the 523) — Bazel modules and .bazelversion
(bazel-examples, rules_lint, rules_jvm_external, rules_oci), Swift packages (XcodeGen, Soto, Ice Cubes), pub (Patrol,
Melos, Ente), mix (Membrane), Gradle catalogs and wrappers (Wikipedia's Android app, Sunflower, FlorisBoard, Amaze,
Nextflow), Maven (Dagger, DolphinScheduler, jenkinsfile-runner), NuGet (StackExchange.Redis), Cargo workspaces and
toolchains (Roc, Tonic, CDK, moon), uv/Poetry/Pipenv (Typer, PennyLane, the Anthropic SDK, Moonraker, Devbox's
examples), pnpm/yarn monorepos (Rush, Nx examples, moon), Composer (Yii 2), Bundler (Omnibus GitLab), Helm charts and
values, kustomize, Terraform and pre-commit (newrelic and adfinis charts, cterence/homelab-gitops, damacus/home-ops,
Nebari, KEDA's http-add-on, astropy), mise (mash-playbook), Makefiles and images (LocalAI, logging-operator, E2B):
committed before its first, blind run in round 40.

`--data fortyfirst` reads deps_bumps_fortyfirst.tsv: 45 more repositories, none in an earlier deps set, all mirrored
already (some for the label sets), chosen for kinds earlier sets hold few of and for people's own bumps (160 of the
510) — pnpm/yarn monorepos (Unkey, Plane, APISIX, Penpot, CircleCI's node orb), Go operators and workspaces (dash0,
minio, jenkinsci, Altinity, lnd, a Pulumi go.work), Cargo (youki, Qiskit, limbo, Rancher's fleet addon), NuGet and
packages.config (Hangfire, BTCPay Server, Aiursoft), Swift and Bundler (RxSwift), Helm charts and values (sapcc,
Redpanda, CockroachDB, PostHog, Mozilla), kustomize (Kubeflow's manifests and pipelines), compose (Network Service
Mesh, Grafana's jsonnet-libs), Terraform (vmware's packer examples, zopdev, azurerm modules, logscale), pre-commit
(SchemaStore, Cosmos, MetalK8s), Makefiles and `.go-version` (metal3, timoni, OPA's Envoy plugin, buildkite), mise and
uv (okf-crossplane), Maven, Gradle and wrappers (gitops-playground, Feast, Kestra, DataDog's serverless sample app):
committed before its first, blind run in round 41.

`--data fortysecond` reads deps_bumps_fortysecond.tsv: 45 more repositories, none in a deps set, all mirrored already
(some for the label sets), chosen for kinds earlier sets hold few of and for people's own bumps (144 of the 390) —
Kubernetes operators and their Makefiles, go.work and Go toolchains (open-cluster-management, node-problem-detector,
JobSet, redis-operator, k6-operator, cluster-api-provider-hetzner, the CAPI Helm addon, kubevirt's Tekton tasks,
system-upgrade-controller), Helm charts and values (2GIS on-premise, elastic, dask, giantswarm's kyverno-policies,
devops-toolkit), pnpm/yarn monorepos (Apache Answer, memos, dagu, Stylus, Violentmonkey, lerna, a cdktf baseline),
NuGet and .NET images (azure-pipelines-agent, the voting app), Gradle catalogs and wrappers (Termux, lottie-android,
architecture-samples), Swift and Bundler (lottie-ios), Maven (Seata, the Flink operator), Pipfiles (giantswarm), uv
(Mistral's client), mise (pulumi-awsx), Terraform (konstructio), images in Cloud Build samples and builders:
committed before its first, blind run in round 42.

`--data fortythird` reads deps_bumps_fortythird.tsv: 57 more repositories (53 keep a row once the wrong ones are
dropped), none in a deps set, all mirrored already (some for the label sets), chosen by the kinds of dependency file
they hold and for people's own bumps (106 of the 252) — PHP Composer projects (pimcore, Rector, October CMS, Laravel's
Jetstream and laravel.io), scientific Python with pre-commit and requirements folders (SciPy, scikit-image, GeoPandas,
Snakemake, Idris2's docs), Maven (ShenYu, Flyway, Canal, xgboost's JVM packages, Atlassian's Data Center charts), Helm
charts and values (Pulsar, Dex, Unleash, RADAR-base, GOV.UK), a GitLab CI with components and pre-commit (Hetzner's
fleeting plugin), Go and a submodule (Pulumi YAML, the Linode cluster-api provider, Vault's provider), Swift
Package.resolved (isowords), Elixir (ecto_sql, lexical), Bundler and gemspecs (CocoaPods, rake, Sinatra, Icinga),
Cargo (trunk, Fyrox, jsr), npm (video.js, Colyseus, Apostrophe, t3-env), CircleCI, compose, kustomize, Terraform, uv
and `.tool-versions`: committed before its first, blind run in round 43.

`--data fortyfourth` reads deps_bumps_fortyfourth.tsv: 40 more repositories, none in a deps set, all mirrored already
(_notes/nodeps55.txt less round 43's candidates), drawn at random (seed 44) from the 215 that gave update commits, no
other choice — bots' and people's commits as they come (55 of the 173 people's): npm and yarn (Leaflet, mocha, zx,
commander.js, Dark Reader, refined-github, Ghostfolio's Angular, the Kubernetes JavaScript client, ajv, Firebase's
samples), Python requirements (cloud-init, Klipper, This Week in Rust, Ansible collections and roles), Go with
Makefile pins and images (the OpenStack cluster-api provider, the host-path CSI driver, colly, drone-docker, Radix),
Bundler (Leaflet, Salt formulas), Helm (Authelia's charts), pre-commit (qBittorrent) and actions: committed
before its first, blind run in round 44.

`--data fortyfifth` reads deps_bumps_fortyfifth.tsv: 45 more repositories, none in a deps set, fetched for it (60 of 112
public candidates drawn at random, seed 45), 45 of the 46 that gave update commits drawn at random (seed 45), no other
choice, capped at 1 actions-only and 2 other commits per ecosystem and 6 a repository, people's first (98 of the 174):
npm/pnpm/yarn (typeorm, Chart.js, knex, Solid, Svelte), Go (BuildKit, sqlc, echo, Hugo), NuGet (xunit, Avalonia,
Sonarr), Gradle (ktor, OpenRewrite, AntennaPod), Composer (Doctrine, Carbon), Bundler (Sidekiq, ActiveAdmin), Cargo
(clap), pip and pre-commit (boto3, Alembic), Docker (nginx, postgres, Home Assistant) and Helm (fluent): committed
before its first, blind run in round 45.

`--data fortysixth` reads deps_bumps_fortysixth.tsv: 45 more repositories, none in a deps set, fetched for it (62 of 132
public candidates drawn at random, seed 46, and 14 more of the other 70, seed 4646; 55 fetched), 45 of the 48 that gave
update commits drawn at random (seed 46), no other choice, capped at 1 actions-only and 2 other commits per ecosystem
and 6 a repository, people's first (126 of the 175): npm/yarn/pnpm (undici, lodash, date-fns, helmet, multer, hapi,
Prisma, Sentry's JavaScript SDK, rollup), Go (testify, zap, go-kit, minio, Loki), Gradle (kotlinx.coroutines, Zuul,
Kafka, k-9, Jellyfin's Android app, Spring Boot and Framework), Maven (Spring Cloud Gateway, ThingsBoard), NuGet
(Radarr, Jackett, NLog, Newtonsoft.Json), Composer (Symfony, PHPUnit, Matomo), Bundler and gemspecs (Puma,
rspec-rails, simple_form), Cargo (diesel, hyper, Rocket), pip and pre-commit (pip, marshmallow, Scrapy, gunicorn,
pi-hole), Docker (the python images), Helm (Vault's chart, minio), Bazel (cert-manager) and Terraform (IAM modules):
committed before its first, blind run in round 46.

`--data fortyseventh` reads deps_bumps_fortyseventh.tsv: 45 more repositories, none in a deps set, fetched for it (70 of
113 public candidates drawn at random, seed 47, and 22 more of the other 43, seed 4747; 63 fetched), 45 of the 51 that
gave update commits drawn at random (seed 47), no other choice, capped at 1 actions-only and 2 other commits per
ecosystem and 6 a repository, people's first (101 of the 173): npm/yarn/pnpm (jQuery, yargs, mongoose, ESLint, zod,
drizzle, dayjs, Luxon), Go (go-redis, bbolt, node_exporter, AdGuard Home), Gradle (butterknife, Glide, RxJava, Koin,
Firefox for Android), Maven (Guice, Helidon, Nacos), NuGet (MassTransit, Prowlarr, Lidarr, RestSharp, Polly's
samples), Bundler (Rails, fastlane, Capybara, Rack, Hanami), Composer (Laravel, PHPMailer), Cargo (log, xsv, exa), pip,
uv, tox and pre-commit (OpenTelemetry, SQLAlchemy, Django REST framework, NetBox), Docker (golang, redis, node images,
nginx-proxy): committed before its first, blind run in round 47.

`--data fortyeighth` reads deps_bumps_fortyeighth.tsv: 45 more repositories, none in a deps set, fetched for it (75 of
187 public candidates drawn at random, seed 48; 58 fetched), 45 of the 49 that gave update commits drawn at random
(seed 48), no other choice, capped at 1 actions-only and 2 other commits per ecosystem and 6 a repository, people's
first (100 of the 161): npm/yarn/pnpm (nanoid, node-postgres, Chakra UI, jsdom, joi, tailwindcss, Spree's packages,
webpack-dev-server), Go (grpc-go, go-git, badger, pebble, validator, color, logrus, mysql, jwt), Gradle (ExoPlayer,
kotlinx.serialization, Element Android), Maven (jackson-core, DBeaver, Vert.x examples), NuGet (EF Core, Orleans,
Duplicati, Files), Bundler and gemspecs (Spree, rspec-core, dry-validation, Bundler), Composer (Appwrite, Snipe-IT,
Breeze), Cargo (serde, crossbeam, dust, rustlings, thiserror, Deno's std), pip, pipenv and pre-commit (Pillow,
SQLModel, Polars), Docker and Compose (Appwrite): committed before its first, blind run in round 48.

`--data fortyninth` reads deps_bumps_fortyninth.tsv: 44 more repositories, none in a deps set (75 of 130 public
candidates drawn at random, seed 49; 53 to be had), every one that gave update commits kept, capped at 2 actions-only
and 3 other commits per ecosystem and 8 a repository, people's first (117 of the 205): npm/yarn/pnpm (graphql-js,
sequelize, node-mysql2, ioredis, dotenv, uuid, markdown-it, yeoman, request, cors, form-data, autoprefixer, glob,
Jupyter Notebook, Halo's console), Deno (Fresh), Go (pgx, zerolog, restic, objx, go-retryablehttp), Gradle
(compose-multiplatform, NewPipe, Eureka, Halo), Maven (zipkin, Sentinel), pip, setup.py, tox and pre-commit
(setuptools, numpy, webargs, paramiko, Jupyter), Bundler (Kingfisher's fastlane, webpacker), Cargo (rayon), Helm charts
and values (helm/charts), mix (plug, absinthe), Composer (Invoice Ninja), Docker and Compose, actions (shellcheck,
hakyll, faraday, go-sqlite3…): committed before its first, blind run in round 49.

`--data fiftieth` reads deps_bumps_fiftieth.tsv: 45 more repositories, none in a deps set (the 67 public candidates
left, 46 to be had, and 45 mirrored ones drawn at random, seeds 50 and 5050; 45 of the 59 that gave update commits
drawn at random, seed 50), capped at 2 actions-only and 3 other commits per ecosystem and 8 a repository, people's
first (118 of the 234): npm/yarn/bun (hono, node-redis, babel-loader, yup, sqlpad, prettier-vscode, the Next.js
monorepo example, grunt, gulp, less.js, morgan), Go (fasthttp, kube-green, cortex, opencost, gatus, go-tools), Cargo
(tokei, xwt, rust-analyzer, devenv), Maven (fastjson2, Apollo, playbook-dispatcher), pip, setup.py, poetry, pipenv
and pre-commit (uvloop, AWX, localstack, changedetection.io, codeql-action, textual), Bundler (liquid, docuseal,
httparty), pub (dart-sass), mix (ecto), NuGet (moq4), Swift, Nix and Helm (dysnix): committed before its first,
blind run in round 50.

`--data fiftyfirst` reads deps_bumps_fiftyfirst.tsv: 45 more repositories, none in a deps set (9 fetched for it and the
first 86 of the 340 mirrored ones no set held in a random order, seed 51; 45 of the 50 that gave update commits drawn at
random, seed 51), capped at 2 actions-only and 3 other commits per ecosystem and 8 a repository, people's first (86 of
the 243): npm/yarn/pnpm (next-auth, json-server, husky, capacitor, xjoin-search, di-ipv-core-front), Go (oapi-codegen,
afero, bomctl, traefik, kubefwd, tfsec, wg-portal, chartmuseum), Cargo (bandwhich, ouch, Rocket), Composer (dbal),
Gradle (capacitor, androidx/media, ArchUnit), Bundler, pip, pipenv, poetry and pre-commit (litgpt, pillow_heif, Kiwi,
botocore, jq, requests-html), Nix (nixfmt), mix (bonfire), Helm and kustomize (jellyfin-helm, sds-flux-config,
homelab-k3s-flux), Drone, Docker and actions: committed before its first, blind run in round 51.

`--data fiftysecond` reads deps_bumps_fiftysecond.tsv: 45 more repositories, none in a deps set (7 fetched for it and
the first 88 of the 363 mirrored ones no set held in a random order, seed 52; 45 of the 53 that gave update commits
drawn at random, seed 52), capped at 2 actions-only and 3 other commits per ecosystem and 8 a repository, people's
first (96 of the 218): npm/yarn/pnpm/bun (posthog-js, insomnia, code-server, simple-icons, chai, oncall,
cypress-example-kitchensink), Go (dbmate, mage, cfssl's Gopkg), Cargo (miniserve, irox, cmprss), Gradle (ksp, jqwik),
pip, poetry, uv and pre-commit (flower, asyncpg, babybuddy, zep, vibetuner), Bundler (webmock, resque), rebar (relx),
deps.edn (calva), NuGet (Autofac, Squidex), Terraform (claranet), Compose and Docker (wazuh-docker, AppFlowy-Cloud),
Swift (swift-format), Dagger and actions: committed before its first, blind run in round 52.

`--data fiftythird` reads deps_bumps_fiftythird.tsv: 40 more repositories, none in a deps set (3 fetched for it —
containerd, dependency-track, asdf-plugins: 12 of the first 15 of 45 public candidates drawn at random, seed 53, were
over the snapshot limit — and the first 87 of the 199 other mirrored ones no set held in a random order, seed 53; all 40
that gave update commits kept), capped at 2 actions-only and 3 other commits per ecosystem and 8 a repository, people's
first (62 of the 192): npm/yarn/pnpm (formik, node-gyp, bullmq, 4ks), Go (containerd's vendor.sh, skopeo, go-plugin,
hcl, memberlist, nats.go), Cargo (indicatif), Gradle catalogs and wrappers (Petals), Maven (dependency-track), NuGet
(FakeItEasy, language-ext, tour-of-heroes), pip and Poetry (pandas-stubs, abseil-py), pub (mockito,
permission_handler), mix (httpoison), Bundler (24pullrequests), Dockerfiles with asdf installs (jenkins-infra's
docker-builder), Drone, kustomize and actions: committed before its first, blind run in round 53.

`--data fiftyfourth` reads deps_bumps_fiftyfourth.tsv: 40 more repositories, none in a deps set (27 fetched for it — 45
public candidates in no deps or label set drawn at random, seed 54, from 111 listed for Nix flakes, deps.edn, mix,
Bazel, Swift, pub, Gradle, NuGet and Maven, 3 over the snapshot limit, all 27 that gave update commits kept — and 13
of the 25 that gave commits among the 52 mirrored ones no set held that round 53 had not read, drawn at random, seed
54), capped
at 2 actions-only and 3 other commits per ecosystem and 8 a repository, people's first (96 of the 191): Nix flakes and
their Cargo crates (flake-checker, nix-index, naersk, fenix, microvm.nix, impermanence), deps.edn (clojure-lsp,
next-jdbc), mix (dialyxir, thousand_island, excoveralls, explorer), Bazel (bazelisk, rules_cc, rules_swift), Swift
(postgres-nio, swift-syntax), pub (graphql-flutter), Gradle (dokka, picnic, picasso), Maven (jOOQ, error-prone,
javapoet), NuGet (MessagePack-CSharp), yarn (headlessui, cachix-action, postcss), pip and pre-commit (urllib3, rq),
Go (controller-runtime, tview), Cargo (rand, mio, rust-postgres) and Bundler (bundler-audit, pry): committed before its
first, blind run in round 54.

`--data fiftysixth` reads deps_bumps_fiftysixth.tsv: 40 more repositories, none in a deps set (29 fetched for it — 45
public candidates in no deps or label set drawn at random, seed 56, from 73 listed for mix, Swift, pub, cabal, sbt,
deps.edn, Nix flakes, Gradle, NuGet, Bazel, Terraform, Flux/kustomize, pre-commit, asdf and the big ecosystems, 5 with
no snapshot or over its limit, all 29 of the 40 that gave update commits kept — and 11 of the 127 that gave commits
among the 225 mirrored ones no set held that rounds 53-54 had not read, drawn at random, seed 56), capped the same way
(91 of the 183 people's): Bazel (rules_xcodeproj, rules_haskell), Nix flakes (nixd, poetry2nix, uv2nix), mix and rebar
(surface, credo, opentelemetry-erlang), deps.edn (clerk), Gradle (kotlinx-datetime, revanced-manager,
gradle-build-action), Swift (grpc-swift), pub (hive), Maven (redisson, zookeeper), poetry (docformatter), pre-commit
(mdformat, reorder-python-imports), kustomize (k3s-gitops), Terraform (terraform-provider-tailscale,
terraform-module-k3s) and actions, npm/pnpm/yarn (viem, UniTask, ghcid): committed before its first, blind run in
round 56.

`--data fiftyseventh` reads deps_bumps_fiftyseventh.tsv: 40 more repositories, none in a deps set (25 fetched for it
— round 56's 28 undrawn candidates and 11 more for the brief's ecosystems, none in a deps or label set, 3 over the
snapshot limit, 2 already mirrored, the 25 of the 36 that gave update commits all kept — and 15 drawn at random, seed
58, from the 118 mirrored ones no deps set holds that gave commits to round 56's collector), capped the same way (101
of the 228 people's): Bazel (rules_kotlin, rules_java, rules_python, rules_rust, rules_apple), deps.edn (cljdoc,
clojurescript, malli, datascript), Nix (nixos-hardware), Swift (swift-nio-ssl), NuGet (MagicOnion, Terminal.Gui,
firewall-orchestrator), Gradle (shadow, supabase-kt), Flux/Helm/kustomize/Terraform homelabs (dfroberg/cluster,
CloudHub-Cluster, nas-argocd-infrastructure, elysium), Go (cloud-sql-proxy, svu, counterfeiter), Makefile and
CircleCI (apicast-operator), npm/yarn (node-zwave-js, highlight.js, shoelace), Cargo (bytes, nil), pre-commit
(codespell) and actions: committed before its first, blind run in round 58; 17 wrongly collected rows dropped and
17 corrected after it.

Columns: `verified` (the delta names X at Y from the files), `+claimed` (or, for an action moved between bare
commit shas, the commit message claims Y), `no file` (commits a wanted version is written on none of the added
lines of: the bare-sha moves, counted as misses, never dropped) and `% named` (verified among the others).
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_deps_collect import label, touched  # noqa: E402

from gatekeeper.deps.model import Change  # noqa: E402
from gatekeeper.deps.precommit import repo_name  # noqa: E402
from gatekeeper.deps.sources import Delta, patch_delta, tree_delta  # noqa: E402
from gatekeeper.deps.tools import tool_name  # noqa: E402
from gatekeeper.deps.versions import base_version  # noqa: E402
from gatekeeper.gitobjects import GitObjects, GitObjectsError  # noqa: E402

DATA = Path(__file__).with_name("deps_bumps.tsv")
SETS = {"main": DATA, "other": DATA.with_name("deps_bumps_other.tsv"), "third": DATA.with_name("deps_bumps_third.tsv"),
        "formats": DATA.with_name("deps_bumps_formats.tsv"), "fifth": DATA.with_name("deps_bumps_fifth.tsv"),
        "sixth": DATA.with_name("deps_bumps_sixth.tsv"),
        "seventh": DATA.with_name("deps_bumps_seventh.tsv"), "eighth": DATA.with_name("deps_bumps_eighth.tsv"),
        "ninth": DATA.with_name("deps_bumps_ninth.tsv"), "tenth": DATA.with_name("deps_bumps_tenth.tsv"),
        "eleventh": DATA.with_name("deps_bumps_eleventh.tsv"), "twelfth": DATA.with_name("deps_bumps_twelfth.tsv"),
        "thirteenth": DATA.with_name("deps_bumps_thirteenth.tsv"),
        "fourteenth": DATA.with_name("deps_bumps_fourteenth.tsv"),
        "fifteenth": DATA.with_name("deps_bumps_fifteenth.tsv"),
        "sixteenth": DATA.with_name("deps_bumps_sixteenth.tsv"),
        "seventeenth": DATA.with_name("deps_bumps_seventeenth.tsv"),
        "eighteenth": DATA.with_name("deps_bumps_eighteenth.tsv"),
        "nineteenth": DATA.with_name("deps_bumps_nineteenth.tsv"), "sbt": DATA.with_name("deps_bumps_sbt.tsv"),
        "twentieth": DATA.with_name("deps_bumps_twentieth.tsv"),
        "twentyfirst": DATA.with_name("deps_bumps_twentyfirst.tsv"),
        "twentysecond": DATA.with_name("deps_bumps_twentysecond.tsv"),
        "twentythird": DATA.with_name("deps_bumps_twentythird.tsv"),
        "twentyfourth": DATA.with_name("deps_bumps_twentyfourth.tsv"),
        "twentyfifth": DATA.with_name("deps_bumps_twentyfifth.tsv"),
        "twentysixth": DATA.with_name("deps_bumps_twentysixth.tsv"),
        "twentyseventh": DATA.with_name("deps_bumps_twentyseventh.tsv"),
        "twentyeighth": DATA.with_name("deps_bumps_twentyeighth.tsv"),
        "twentyninth": DATA.with_name("deps_bumps_twentyninth.tsv"),
        "thirtieth": DATA.with_name("deps_bumps_thirtieth.tsv"),
        "thirtyfirst": DATA.with_name("deps_bumps_thirtyfirst.tsv"),
        "thirtysecond": DATA.with_name("deps_bumps_thirtysecond.tsv"),
        "thirtythird": DATA.with_name("deps_bumps_thirtythird.tsv")}
SETS["thirtyfourth"] = DATA.with_name("deps_bumps_thirtyfourth.tsv")
SETS["thirtyfifth"] = DATA.with_name("deps_bumps_thirtyfifth.tsv")
SETS["thirtysixth"] = DATA.with_name("deps_bumps_thirtysixth.tsv")
SETS["thirtyseventh"] = DATA.with_name("deps_bumps_thirtyseventh.tsv")
SETS["thirtyeighth"] = DATA.with_name("deps_bumps_thirtyeighth.tsv")
SETS["thirtyninth"] = DATA.with_name("deps_bumps_thirtyninth.tsv")
SETS["fortieth"] = DATA.with_name("deps_bumps_fortieth.tsv")
SETS["fortyfirst"] = DATA.with_name("deps_bumps_fortyfirst.tsv")
SETS["fortysecond"] = DATA.with_name("deps_bumps_fortysecond.tsv")
SETS["fortythird"] = DATA.with_name("deps_bumps_fortythird.tsv")
SETS["fortyfourth"] = DATA.with_name("deps_bumps_fortyfourth.tsv")
SETS["fortyfifth"] = DATA.with_name("deps_bumps_fortyfifth.tsv")
SETS["fortysixth"] = DATA.with_name("deps_bumps_fortysixth.tsv")
SETS["fortyseventh"] = DATA.with_name("deps_bumps_fortyseventh.tsv")
SETS["fortyeighth"] = DATA.with_name("deps_bumps_fortyeighth.tsv")
SETS["fortyninth"] = DATA.with_name("deps_bumps_fortyninth.tsv")
SETS["fiftieth"] = DATA.with_name("deps_bumps_fiftieth.tsv")
SETS["fiftyfirst"] = DATA.with_name("deps_bumps_fiftyfirst.tsv")
SETS["fiftysecond"] = DATA.with_name("deps_bumps_fiftysecond.tsv")
SETS["fiftythird"] = DATA.with_name("deps_bumps_fiftythird.tsv")
SETS["fiftyfourth"] = DATA.with_name("deps_bumps_fiftyfourth.tsv")
SETS["fiftysixth"] = DATA.with_name("deps_bumps_fiftysixth.tsv")
SETS["fiftyseventh"] = DATA.with_name("deps_bumps_fiftyseventh.tsv")


def mirror(root: Path, repo: str) -> Path:
    return root / repo.replace("/", "+") / "repo"


def _dated(want: str, got: str) -> bool:
    """Renovate's regex versioning names a tag by the number it extracts: "update grafana/tempo-ci-tools docker tag to
    v20260603" for `main-d182bec-20260603-154614` (branch, commit, date, time): the date is one whole `-` part."""
    return want.isdigit() and len(want) >= 6 and want in got.split("@")[0].split("-")[1:]


def _same_version(want: str, got: str | None) -> bool:
    if not got:
        return False
    if " from " in got and _same_version(want, got.split(" from ", 1)[0]):
        # a version that carries its source (`0.15.0 from git+https://… revision:…`, a Gemfile.lock GIT gem's, a
        # git-sourced Cargo.lock entry's) names that version still
        return True
    if "||" in got:  # a range widened to a new major (`^1.0 || ^2.0`, Renovate's "to v2"): one alternative names it
        return any(_same_version(want, alt.strip()) for alt in got.split("||")[:16])
    if "|" in got:  # a Maven property each profile sets apart (`22.0.0.2|22.3.5|25.1.3`, jvm.pom_properties)
        return any(_same_version(want, alt.strip()) for alt in got.split("|")[:16])
    want, got = re.sub(r"^[vV]", "", want), re.sub(r"^[vV]", "", got)  # a tag may say `V28`
    if re.fullmatch(r"[0-9a-f]{7,40}", want):
        # a submodule's or action's abbreviated commit, an image digest, a Go pseudo-version's commit, a gem's
        # git `ref:` (Renovate's "update erector digest to f99aecd" for `gem 'erector', github: …, ref: '<sha>'`), a
        # Gemfile.lock GIT section's `revision:` (Dependabot's "bump fastlane-plugin-x from `b4e1e7f` to `7fbbe66`")
        return got.startswith(want) or f"@sha256:{want}" in got or bool(re.search(rf"-{want}[0-9a-f]*$", got)) \
            or f"ref:{want}" in got or f"revision:{want}" in got or _dated(want, got)
    # Dependabot's "update urwid requirement from <=4.0.8,>=2.6.14 to >=2.6.14,<=4.0.9" widens a range to the new
    # release by its inclusive upper bound: that bound is the version it names
    if (upper := re.search(r"(?:^|,)\s*<=\s*v?([^\s,]+)", got)) is not None and upper.group(1) == want.lstrip("vV"):
        return True
    # Renovate's "update dependency google.longrunning to v3" widens NuGet's `[2.3.0, 3.0.0)` to `[2.3.0,3.5.0]`: an
    # inclusive upper bound (`]`) is a release the range takes, and names the major (or the version) it is of
    if (inclusive := re.fullmatch(r"\[\s*v?[^\s,\]]*\s*,\s*v?([^\s,\]]+)\s*\]", got.strip())) is not None:
        bound = inclusive.group(1)
        if bound == want.lstrip("vV") or bound.split(".")[: len(want.split("."))] == want.lstrip("vV").split("."):
            return True
    # Renovate's "update terraform aws to v6" widens `>= 4.9.0, < 6.0` to `< 6.28`: an exclusive upper bound alone,
    # of the major it names and past its `.0`, admits that major (`< 6.0` would not)
    below = re.fullmatch(r"<\s*v?(\d+)((?:\.\d+)+)", got.strip())
    if below is not None and below.group(1) == want and set(below.group(2).replace(".", "")) != {"0"}:
        return True
    # Dependabot widens a library's range across a new major ("bump very_good_analysis from 5.1.0 to 6.0.0" writes
    # `>=5.1.0 <7.0.0`, pub's and npm's widen strategy): the range keeps its lower bound, of an older major, and
    # ends at the `.0.0` of the major after the one named — that one is what it admits
    widened = re.fullmatch(r">=\s*v?(\d+)[\w.\-]*,?\s*<\s*v?(\d+)\.0\.0", got.strip())
    named = re.match(r"v?(\d+)\.", want)
    if widened is not None and named is not None \
            and int(widened.group(1)) < int(named.group(1)) == int(widened.group(2)) - 1:
        return True
    # a pin written as a constraint: `==11.*` (PyPI), `[10.5.0, 11.0.0)` (NuGet) and `<6.1,>=6.0.4` (PyPI):
    # its lower bound
    if (lower := re.search(r"(?:^|,)\s*>=\s*v?([^\s,]+)", got)) is not None:
        got = lower.group(1)
    got, want = (re.sub(r"^(?:==|\[)\s*|\.\*$|\s*,.*$", "", v) for v in (got, want))
    if "+" not in want:  # SemVer build metadata (`1.1.4+spec-1.1.0`) is no part of the version's identity
        got = got.split("+")[0]
    tag = got.split("@")[0]  # a docker image's `tag@digest`
    if tag == want or tag.startswith(want + "-"):  # an image's variant: `1.26.5-alpine` is 1.26.5
        return True
    # Renovate names a major's pre-release by the major ("update postgres docker tag to v19" writes `19beta2`)
    if re.fullmatch(rf"{re.escape(want)}(?:alpha|beta|rc)\d*", tag):
        return True
    got = (base_version(tag) or tag).removeprefix("v")
    # Renovate names a major or minor update by its prefix ("to v5"): 5.0.0 and 5.1.2 both fit; a version
    # comment shorter than the release it names (`# v2.0` for 2.0.0) is the same version.
    if got == want or got.split(".")[: len(want.split("."))] == want.split("."):
        return True
    short, rest = got.split("."), want.split(".")[len(got.split(".")):]
    return len(short) > 1 and want.split(".")[: len(short)] == short and bool(rest) and set(rest) == {"0"}


# Dependabot names the build tool a wrapper downloads by the wrapper's name, and Renovate an asdf
# `.tool-versions` entry by its asdf plugin (`golang`, `nodejs`); the delta names the tool.
# Renovate's github-tags datasource names a runtime by its repository (`golang/go`, `nodejs/node`), and its maven
# datasource Maven itself by its core artifact (a Dockerfile's `ARG MAVEN_VERSION=3.9.12` under a custom manager).
_WRAPPERS = {("tool", "gradle", "gradle-wrapper"), ("tool", "maven", "maven-wrapper"), ("tool", "go", "golang"),
             ("tool", "node", "nodejs"), ("tool", "go", "golang/go"), ("tool", "node", "nodejs/node"),
             ("tool", "maven", "org-apache-maven:maven-core"), ("tool", "node", "node-js"),
             ("docker", "node", "node-js"), ("docker", "library/node", "node-js"),
             # the envtest Kubernetes version a kubebuilder Makefile pins, by its variable or the assets' old bucket
             ("tool", "envtest", "kubebuilder-tools"), ("tool", "envtest", "envtest-k8s-version"),
             ("tool", "envtest", "envtest-k8s"),
             ("tool", "maven", "org-apache-maven:apache-maven"), ("tool", "dotnet", "dotnet-sdk"),
             ("maven", "org-scala-sbt:sbt", "sbt/sbt"), ("tool", "rust", "rust-toolchain")}
# Dependabot's maven ecosystem names the Maven a wrapper downloads by its distribution's coordinates ("bump
# org.apache.maven:apache-maven from 3.9.14 to 3.9.16" for `.mvn/wrapper/maven-wrapper.properties`), and its
# dotnet-sdk ecosystem, as Renovate, the .NET SDK global.json selects by `dotnet-sdk`: the tool the delta names.
# Renovate's node presets name the runtime by its display name ("Update Node.js to v18.16.1" for `.nvmrc`'s `18.16.0`,
# and for the official `node` image a Dockerfile's FROM names: novu's "Update Node.js to v15.14.0" moves `FROM
# node:15.11.0` to `node:15.14.0`): `node-js` above, once normalized.
# Dependabot's rust-toolchain ecosystem names the channel a `rust-toolchain.toml` pins by the file ("bump rust-toolchain
# from 1.97.1 to 1.98.0", apache/arrow-rs): the Rust toolchain, which the delta names `rust`.
# Renovate names sbt itself, `sbt.version` in project/build.properties, by its repository ("Update dependency sbt/sbt
# to v1.12.15"), where scala-steward says `sbt`: the delta names the launcher's artifact, org.scala-sbt:sbt.
# A toolchain's artifacts released together at one version, which one build setting selects: `scalaVersion` the
# Scala compiler, library and reflection (the delta names the library), `addSbtPlugin(… "sbt-scala-native" …)` Scala
# Native's runtime libraries, `sbt-scalajs` Scala.js's. scala-steward names every artifact of such a group ("Update
# scala-compiler, scala-library, ... to 2.13.15", "Update auxlib, clib, javalib, nativelib, ... to 0.5.5"), and the
# collector keeps the first when the commit's lines spell none: each names the one setting the delta reads.
# In a Scala.js build on Scala 3, sbt-scalajs adds the Scala.js build of the Scala 3 library at `scalaVersion` itself
# (`"org.scala-lang" % "scala3-library_sjs1_3" % scalaVersion.value`), and scala-steward names the update by it
# ("Update scala3-library_sjs1_3 to 3.8.4" for `val scala3 = "3.8.4"`): the same setting, at the same version. Scala
# Native's build of the library (`scala3lib_native0.5_3`) carries Scala Native's version too and is not in this group.
_TOOLCHAINS = {
    "org-scala-lang:scala-library": frozenset({"scala-compiler", "scala-library", "scala-reflect", "scalap"}),
    "org-scala-lang:scala3-library": frozenset({"scala3-compiler", "scala3-library", "scala3-interfaces",
                                                "tasty-core", "scala3-staging", "scala3-tasty-inspector",
                                                "scala3-library-sjs1", "scala3-library-sjs1-3"}),
    "org-scala-native:sbt-scala-native": frozenset({
        "auxlib", "clib", "javalib", "nativelib", "posixlib", "scalalib", "windowslib", "junit-runtime",
        "test-interface", "nscplugin", "junit-plugin", "tools", "test-runner", "sbt-scala-native"}),
    "org-scala-js:sbt-scalajs": frozenset({
        "scalajs-library", "scalajs-compiler", "scalajs-linker", "scalajs-test-interface", "scalajs-test-bridge",
        "scalajs-junit-test-runtime", "scalajs-javalib", "scalajs-ir", "sbt-scalajs"}),
}


def _same_name(want: str, change: Change) -> bool:
    """The delta names the package the message names. Bots spell some names shorter than the delta's
    canonical name: a Maven artifactId (`junit` for junit:junit), a Terraform provider's local name
    (`google` for hashicorp/google), an action's sub-action (`github/codeql-action/init`), an image
    with its tag (`debian:bookworm-slim`) or without its registry (`aquasec/trivy`), a PyPI package with
    its extras (`psycopg[binary]`), a tool by its short name (`buildx` for docker/buildx), a Terraform
    module by its source without a sub-module (`//modules/x`), a wrapper's tool by the wrapper's name
    (`gradle-wrapper`) or an asdf tool by its plugin (`golang`), a Go module by the path it had before its major
    version moved (`from_name`) or without its host, a Terraform module by Dependabot's `block::repository`, a
    pre-commit hook repository by its URL (`https://github.com/crate-ci/typos`); each is the same package."""
    norm = lambda s: re.sub(r"[-_.]+", "-", s).lower()  # noqa: E731 - PEP 503 for PyPI, harmless elsewhere
    if change.ecosystem == "pip":
        want = re.sub(r"\[[^\]]*\]$", "", want)  # `psycopg[binary]`: the extras are not the package's name
        want = want.rpartition("/")[2]  # Renovate names a PDM dev group's entry by its group (`dev/pytest`)
    if change.ecosystem == "pre-commit":
        # Dependabot names a hook repository by its URL, pre-commit.ci without its scheme (`github.com/o/r`)
        want = repo_name(re.sub(r"^github\.com/", "https://github.com/", want))
    if change.ecosystem == "npm" and ">" in want:
        want = want.rsplit(">", 1)[-1]  # Renovate names a pnpm override by its selector (`enzyme>cheerio`)
    if change.ecosystem == "npm" and (selected := re.fullmatch(r"((?:@[^/@\s]+/)?[^/@\s]+)@[^@\s]+", want)):
        want = selected.group(1)  # and one whose selector is a version range (`minimatch@3.1.2`): the package
    if change.from_name is not None and norm(change.from_name) == norm(want):
        return True  # a Go module's major version moved in its path: bots name the old path
    if change.alias is not None and norm(change.alias) == norm(want):
        return True  # a Gradle catalog entry by its key (`Update plugin spotless`), which the file writes
    if change.version_ref is not None and norm(change.version_ref) == norm(want):
        return True  # entries sharing a catalog's `[versions]` key, by that key (Renovate's "Update agp to v9.3.1")
    name, want = norm(change.name), norm(want)
    if change.ecosystem in ("pub", "hex"):
        # a git dependency is named with its source (`flutter_sodium@git+https://…`, mix's `hackney@git+https://…`)
        name = name.split("@git+", 1)[0]
    if change.ecosystem == "go" and " => " in change.name:
        # a `replace OLD => NEW v` directive: Renovate names it by NEW, the module whose code is built
        name = norm(change.name.split(" => ", 1)[1])
    if change.ecosystem == "terraform":
        # `git::https://github.com/o/r.git` is the source Terraform's `github.com/o/r` shorthand stands for, and
        # Renovate names it so; a module's sub-module (`…/google//modules/x`) is the module
        if name.startswith("git::"):
            name = re.sub(r"-git$", "", re.sub(r"^git::https?://", "", name))
        name = re.sub(r"//.*$", "", name)
        # Dependabot names a git-sourced module `<module block>::<repository>` (`auth0::cloud-platform-terraform-auth0`)
        # and, in its metadata, `<module block>::github::<owner>/<repository>::<ref>`: the repository, not the ref
        parts = want.split("::")
        while len(parts) > 1 and re.fullmatch(r"v?\d[\w.-]*", parts[-1]):
            parts.pop()
        want = parts[-1]
    if (change.ecosystem, name, want) in _WRAPPERS:
        return True
    # a Scala toolchain's artifact by any of its group's names (`scala-compiler` for scalaVersion's library, the
    # Scala.js build of the Scala 3 library, which sbt-scalajs takes at scalaVersion); any other artifact with a
    # platform suffix (`nativelib_native0.5_3`, `cats-core_sjs1_3`) is another artifact
    if change.ecosystem == "maven" and want in _TOOLCHAINS.get(name, ()):
        return True
    # From Scala 3.8 the standard library a Scala 3 `scalaVersion` selects is `org.scala-lang:scala-library` at that
    # version (scala3-library_3 is published empty: scala/scala3 #24816), and bots name it so (scala-steward's "Update
    # scala-library to 3.8.1", Dependabot's "Bump org.scala-lang:scala-library from 2.13.18 to 3.8.0"): the setting
    # the delta names by the Scala 3 library
    if change.ecosystem == "maven" and name == "org-scala-lang:scala3-library" and want == "scala-library" \
            and (line := re.match(r"3\.(\d+)\.", change.to_version or "")) is not None and int(line.group(1)) >= 8:
        return True
    # a tool by the name a line spells it (`RUN install-tool docker-compose v5.5.0`), which the delta keeps under its
    # one name (docker/compose), as a workflow's pin of it
    if change.ecosystem == "tool" and norm(tool_name(want)) == name:
        return True
    # a tool the delta knows by its bare name (`HELM_SCHEMA_VERSION` beside `helm plugin install …/helm-schema`), which
    # Renovate's github-releases datasource names by its repository (`dadav/helm-schema`)
    if change.ecosystem == "tool" and "/" not in name and want.count("/") == 1 and norm(want).endswith("/" + name):
        return True
    if change.ecosystem == "docker":
        want = re.sub(r":[^/]*$", "", want)
    if name == want:
        return True
    # an image named without its registry (`aquasec/trivy` for docker.io/aquasec/trivy), a tool by its short
    # name (`buildx` for docker/buildx)
    # a Go module without its host (Renovate's older "update module sethgrid/pester"), a kustomize remote resource
    # by its repository or project name (`cert-manager` for github.com/jetstack/cert-manager)
    # a Swift package by its repository without the host (Renovate's `pointfreeco/swift-snapshot-testing` for
    # github.com/pointfreeco/swift-snapshot-testing), a Go module by its repository without its major version's
    # suffix (a `# renovate: datasource=github-tags depName=onsi/ginkgo` for github.com/onsi/ginkgo/v2)
    # a deno.land module by its name (`pagic` for deno.land/x/pagic)
    # a repository a Makefile pins to a commit (`git`, makepins.py) by its owner/name or name (`ggerganov/llama.cpp`)
    # a Nix flake input by its repository (Dependabot's `treefmt-nix` for github:numtide/treefmt-nix), where a patch's
    # hunk does not show the node's key the delta keeps as its alias (round 56)
    suffix = {"maven": ":", "terraform": "/", "git-submodule": "/", "git": "/", "docker": "/", "tool": "/", "go": "/",
              "kustomize": "/", "swift": "/", "deno": "/", "nix": "/"}.get(change.ecosystem)
    if suffix and name.endswith(suffix + want):
        return True
    if change.ecosystem == "go" and re.sub(r"/v\d+$", "", name).endswith("/" + want):
        return True
    # Go's semantic import versioning puts a major version 2 and up in the module's path, and Renovate names a major
    # update by the path it moves from ("update module github.com/cenkalti/backoff/v5 to v6" writes …/backoff/v6;
    # "update module github.com/asaskevich/govalidator to v12" adds …/govalidator/v12 beside the v0 line a
    # dependency still needs): one module, whichever major's path each names
    if change.ecosystem == "go" and re.sub(r"/v\d+$", "", name) == re.sub(r"/v\d+$", "", want):
        return True
    # a GitLab CI component by its project (Renovate's "update dependency apricote/releaser-pleaser" for `- component:
    # $CI_SERVER_FQDN/apricote/releaser-pleaser/run@v0.9.0`): the address less its host (a CI variable such as
    # `$CI_SERVER_FQDN`, or a host name) and its last part, the component's name
    if change.ecosystem == "gitlab-component":
        host = change.name.partition("/")[0]
        project = name.partition("/")[2].rpartition("/")[0]
        if (host.startswith("$") or "." in host) and "/" in project and project == want:
            return True
    return change.ecosystem == "github-actions" and want.startswith(name + "/")


def _cases(data: Path = DATA) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(repository, commit) → [(package, version)] in file order: a grouped update's rows together. A fifth
    column, where present, says why a row was corrected by hand (`corrected: label said …`): the commit does
    not do what its message says, and the row holds what the commit writes; a row dropped for that reason stays
    as a comment (`# dropped: …`) saying why."""
    cases: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for line in data.read_text().splitlines():
        if line and not line.startswith("#"):
            repo, sha, name, version = line.split("\t")[:4]
            cases.setdefault((repo, sha), []).append((name, version))
    return cases


def _named_in_no_file(root: Path, repo: str, sha: str, wanted: list[tuple[str, str]], delta: Delta) -> bool:
    """Whether a version the commit must show is written on none of its added lines: an action moved between
    bare commit shas (`@<sha>` with no `# vX`, or a comment left stale) names its version only in the commit
    message, which no file holds. The collector keeps such commits (`_shows`); they are counted, and shown
    apart, never dropped."""
    done = subprocess.run(["git", "diff", "-U0", f"{sha}^", sha], cwd=mirror(root, repo), capture_output=True)
    added = "\n".join(ln for ln in done.stdout.decode(errors="replace").splitlines() if ln.startswith("+"))
    return any(not _found(n, v, delta, False) and v.removeprefix("v") not in added for n, v in wanted)


def _delta(root: Path, repo: str, sha: str, mode: str, gits: dict[str, GitObjects]) -> Delta:
    if mode == "patch":
        patch = subprocess.run(["git", "diff", "--binary", f"{sha}^", sha], cwd=mirror(root, repo),
                               capture_output=True, check=True).stdout
        return patch_delta(None, io.BytesIO(patch))
    if repo not in gits:  # one `cat-file --batch` per repository, as the gate has one per run
        for git in gits.values():
            git.close()
        gits.clear()
        gits[repo] = GitObjects(mirror(root, repo))
    return tree_delta(gits[repo], f"{sha}^", sha)


def _found(name: str, version: str, delta: Delta, claimed: bool) -> bool:
    for c in delta.changes:
        if _same_name(name, c) and (_same_version(version, c.to_version) or _same_version(version, c.to_tag)
                                    or claimed and _same_version(version, getattr(c, "claimed", None))):
            return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--mode", choices=("tree", "patch"), default="tree",
                        help="patch: the delta of `git diff --binary parent commit` alone")
    parser.add_argument("--only", default="", help="only the repositories whose name contains this")
    parser.add_argument("--misses", action="store_true", help="list every miss")
    parser.add_argument("--sample", type=int, default=0, help="every Nth commit only (a quick look)")
    parser.add_argument("--data", default="main",
                        help=f"a collection kept here ({', '.join(SETS)}) or another's TSV (bench_deps_collect.py)")
    parser.add_argument("--unseen", action="store_true", help="only commits that bench/deps_bumps.tsv does not hold")
    args = parser.parse_args()
    seen = {sha for _, sha in _cases()} if args.unseen else set()
    data = SETS.get(args.data) or Path(args.data)
    cases = {k: v for k, v in _cases(data).items() if args.only in k[0] and k[1] not in seen}
    if args.sample:
        cases = dict(list(cases.items())[:: args.sample])
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # commits, verified, with claims, unknowable
    misses: list[str] = []
    skipped = 0
    absent = {repo for repo, _ in cases if not mirror(args.mirrors, repo).is_dir()}
    gits: dict[str, GitObjects] = {}
    started = time.perf_counter()
    for (repo, sha), wanted in cases.items():
        if repo in absent:
            skipped += 1  # no snapshot of the repository here: its commits cannot be read
            continue
        eco = label(touched(args.mirrors, repo, sha)) or "none"
        try:
            delta = _delta(args.mirrors, repo, sha, args.mode, gits)
        except (subprocess.CalledProcessError, GitObjectsError):
            skipped += 1  # the snapshot lacks a blob of the commit (files of 4 MiB and more): git cannot read it
            continue
        verified = all(_found(n, v, delta, False) for n, v in wanted)
        claimed = all(_found(n, v, delta, True) for n, v in wanted)
        row = per[eco]
        row[0] += 1
        row[1] += verified
        row[2] += claimed
        unknowable = not verified and _named_in_no_file(args.mirrors, repo, sha, wanted, delta)
        row[3] += unknowable
        if not verified:
            seen = ", ".join(f"{c.name}@{c.to_version}" for c in delta.changes[:4]) or "no changes"
            problems = "; ".join(f"{p.manifest}: {p.kind}" for p in delta.problems[:2])
            misses.append(f"  [{eco}]{' [named in no file]' if unknowable else ''} {repo} {sha[:12]} "
                          f"{' '.join(n + '@' + v for n, v in wanted)[:120]}: "
                          f"{seen[:160]}{' (claimed)' if claimed else ''}; problems: {problems or 0}")
    elapsed = time.perf_counter() - started
    for git in gits.values():
        git.close()
    total = [sum(r[i] for r in per.values()) for i in range(4)]
    if absent:
        names = ", ".join(sorted(absent))
        print(f"{len(absent)} repositories not under {args.mirrors}, their commits skipped: {names}")
    if skipped:
        print(f"{skipped} commits skipped: no mirror, or the mirror lacks a blob git needs for their patch")
    print(f"mode {args.mode}: {len(cases) - skipped} commits, {len(per)} ecosystems, {elapsed:.1f} s "
          f"({1000 * elapsed / max(len(cases), 1):.0f} ms per commit)")
    # `no file`: commits whose version no added line writes (bare-sha action moves); `% named`: verified hits
    # among the other commits, those whose files name the version — what a reader of files can be held to.
    if not total[0]:
        return  # no commit could be read here
    print(f"{'ecosystem':16} {'commits':>7} {'verified':>9} {'%':>6} {'+claimed':>9} {'%':>6} {'no file':>8} "
          f"{'% named':>8}")
    for eco, (n, hit, hit_claimed, blind) in sorted(per.items(), key=lambda kv: -kv[1][0]) + [("ALL", total)]:
        print(f"{eco:16} {n:7} {hit:9} {100 * hit / n:6.1f} {hit_claimed:9} {100 * hit_claimed / n:6.1f} "
              f"{blind:8} {100 * hit / max(n - blind, 1):8.1f}")
    if args.misses:
        print("\n".join(misses))
    else:
        print(f"{len(misses)} misses (--misses lists them)")


if __name__ == "__main__":
    main()
