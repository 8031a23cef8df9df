import { App } from 'aws-cdk-lib';
import { ApiStack } from '../lib/api-stack.ts';

const app = new App();
new ApiStack(app, 'GitlabApi', {
  description: 'GitLab-compatible REST API (API Gateway HTTP API, Lambda, DynamoDB, S3, SQS)',
});
