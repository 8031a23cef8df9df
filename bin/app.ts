import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ApiStack } from '../lib/api-stack.ts';

const app = new App();
new ApiStack(app, 'GitlabApi', {
  description: 'GitLab-compatible REST API (API Gateway HTTP API, Lambda, DynamoDB, S3, SQS)',
});
// cdk-nag's AwsSolutions pack on every stack: `cdk synth` fails on any finding that is not
// suppressed, with its reason, beside the construct it concerns (lib/). Its report is written to
// cdk.out/AwsSolutions-*-NagReport.csv.
Aspects.of(app).add(new AwsSolutionsChecks());
